import express, { type Router } from 'express';
import type { AppDeps } from '../server/request-context.js';
import { authRoutes } from './auth.routes.js';
import { purchaseRoutes } from './purchase.routes.js';
import { flashSaleRoutes } from './flash-sale.routes.js';

/** The REST facade: every route calls one service method, like its GraphQL twin. */
export function apiRouter(deps: AppDeps): Router {
  const router = express.Router();
  authRoutes(router);
  purchaseRoutes(router);
  flashSaleRoutes(router);
  return router;
}
