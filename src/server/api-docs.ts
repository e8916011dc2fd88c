import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';
import { openApiJson } from '../rest/openapi/document.js';

/** Swagger UI's files, from the npm package: the reference page loads nothing from another host. */
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The page's own policy: our scripts and styles only (Swagger UI sets inline styles), data: images. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Mallfront REST API</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

/** No inline script, so the policy needs no nonce. `validatorUrl: null`: no badge from swagger.io. */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#reference',
  validatorUrl: null,
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  persistAuthorization: false,
});
`;

/**
 * `GET /api/openapi.json` (the document, built once per process) and the reference page at
 * `GET /api/docs`. Mounted before the `/api` door, so neither needs a database session.
 */
export function apiDocs(): Router {
  const router = express.Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.type('application/json').send(openApiJson());
  });
  router.get('/api/docs', (_req, res) => {
    res.set('Content-Security-Policy', PAGE_POLICY).type('html').send(PAGE);
  });
  router.get('/api/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(INIT);
  });
  router.use('/api/docs/assets', express.static(swaggerUiDir, { index: false, fallthrough: true }));
  return router;
}
