import type { Router } from 'express';
import * as freight from '../services/shipping/freight-template.service.js';
import { listShippingCompanies } from '../services/shipping/shipping-company.service.js';
import { PageQuery } from '../shared/pagination.js';
import { route, Reply } from './route.js';
import { FreightAssignment, FreightTemplate, FreightTemplatePage, ShippingCompanyList } from './responses/points-shipping.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Shipping';

/** Freight templates of a shop, their assignment to products, and the shipping company dictionary. */
export function freightRoutes(router: Router) {
  // A small list read as a whole: `{items}` like brands and the category tree.
  route(router, '/shipping-companies', {
    get: {
      doc: { tag, summary: 'The shipping companies a shipment may name', permission: Permission.Public, response: ShippingCompanyList },
      handle: async ({ ctx }) => ({ items: await listShippingCompanies(ctx) }),
    },
  });
  route(router, '/merchant/freight-templates', {
    get: { doc: { tag, summary: "The shop's freight templates", permission: Permission.ShopCatalogManage, query: PageQuery, response: FreightTemplatePage }, handle: ({ ctx, query }) => freight.listFreightTemplates(ctx, query) },
    post: {
      doc: { tag, summary: 'Create a freight template', permission: Permission.ShopCatalogManage, body: freight.TemplateInput, response: FreightTemplate, status: 201 },
      handle: async ({ ctx, body }) => new Reply(201, await freight.createFreightTemplate(ctx, body)),
    },
  });
  route(router, '/merchant/freight-templates/:templateId', {
    put: {
      doc: { tag, summary: 'Replace a freight template', permission: Permission.ShopCatalogManage, body: freight.TemplateInput, response: FreightTemplate, errors: freight.updateFreightTemplateRefusals },
      handle: ({ ctx, params, body }) => freight.updateFreightTemplate(ctx, { ...(body as object), ...params }),
    },
    delete: {
      doc: { tag, summary: 'Delete a freight template no product uses', permission: Permission.ShopCatalogManage, response: null, errors: freight.deleteFreightTemplateRefusals },
      handle: async ({ ctx, params }) => {
        await freight.deleteFreightTemplate(ctx, params);
        return new Reply(204, undefined);
      },
    },
  });
  route(router, '/merchant/products/:productId/freight-template', {
    put: {
      doc: { tag, summary: "Set a product's freight template (null: the default)", permission: Permission.ShopCatalogManage, body: freight.AssignInput, response: FreightAssignment, errors: freight.assignFreightTemplateRefusals },
      handle: ({ ctx, params, body }) => freight.assignFreightTemplate(ctx, { ...(body as object), ...params }),
    },
  });
}
