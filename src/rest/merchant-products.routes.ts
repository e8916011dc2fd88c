import type { Router } from 'express';
import * as merchant from '../catalog/merchant-product.service.js';
import { route, Reply } from './route.js';

/** A shop operator's own products. */
export function merchantProductRoutes(router: Router) {
  route(router, '/merchant/products', {
    get: ({ ctx, query }) => merchant.listMerchantProducts(ctx, query),
    // Upsert: 201 when the body has no id (created), 200 when it updates.
    put: async ({ ctx, body }) => {
      const product = await merchant.upsertProduct(ctx, body);
      return new Reply((body as { id?: unknown } | null)?.id == null ? 201 : 200, product);
    },
  });
  route(router, '/merchant/products/:id/publish', { post: ({ ctx, params }) => merchant.publishProduct(ctx, params.id) });
  route(router, '/merchant/products/:id/unpublish', { post: ({ ctx, params }) => merchant.unpublishProduct(ctx, params.id) });
}
