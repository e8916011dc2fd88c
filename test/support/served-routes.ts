import type { Router } from 'express';
import { apiRouter } from '../../src/rest/api.js';

/** `{id}`, `{sku_id}`, `:orderId`... all become `{}` so a document's and Express's spellings compare. */
export const normalizeRoute = (route: string) => route.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

/** Every route and method Express serves under /api, as `GET /api/products/:id`. */
export function servedRoutes(): string[] {
  const router = apiRouter() as Router & { stack: any[] };
  const out: string[] = [];
  for (const layer of router.stack) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) {
      if (method === '_all') continue;
      out.push(`${method.toUpperCase()} /api${layer.route.path}`);
    }
  }
  return out;
}
