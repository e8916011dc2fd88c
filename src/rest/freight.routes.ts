import type { Router } from 'express';
import * as freight from '../shipping/freight-template.service.js';
import { listShippingCompanies } from '../shipping/shipping-company.service.js';
import { route, Reply } from './route.js';

/** Freight templates of a shop, their assignment to products, and the shipping company dictionary. */
export function freightRoutes(router: Router) {
  // A small list read as a whole: `{items}` like brands and the category tree.
  route(router, '/shipping-companies', { get: async ({ ctx }) => ({ items: await listShippingCompanies(ctx) }) });
  route(router, '/merchant/freight-templates', {
    get: ({ ctx, query }) => freight.listFreightTemplates(ctx, query),
    post: async ({ ctx, body }) => new Reply(201, await freight.createFreightTemplate(ctx, body)),
  });
  route(router, '/merchant/freight-templates/:templateId', {
    put: ({ ctx, params, body }) => freight.updateFreightTemplate(ctx, { ...(body as object), ...params }),
    delete: async ({ ctx, params }) => {
      await freight.deleteFreightTemplate(ctx, params);
      return new Reply(204, undefined);
    },
  });
  route(router, '/merchant/products/:productId/freight-template', {
    put: ({ ctx, params, body }) => freight.assignFreightTemplate(ctx, { ...(body as object), ...params }),
  });
}
