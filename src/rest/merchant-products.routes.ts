import type { Router } from 'express';
import * as merchant from '../services/catalog/merchant-product.service.js';
import { route, Reply } from './route.js';
import { MerchantProduct, MerchantProductPage } from './responses/catalog.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Merchant products';

/** A shop operator's own products. */
export function merchantProductRoutes(router: Router) {
  route(router, '/merchant/products', {
    get: {
      doc: { tag, summary: "The shop's products, in every state", permission: Permission.ShopCatalogManage, query: merchant.ListInput, response: MerchantProductPage },
      handle: ({ ctx, query }) => merchant.listMerchantProducts(ctx, query),
    },
    put: {
      doc: {
        tag, summary: 'Create (no `id`: 201) or update (200) a product with its complete SKU list', permission: Permission.ShopCatalogManage, body: merchant.UpsertInput,
        response: MerchantProduct, status: [200, 201], errors: merchant.upsertProductRefusals,
      },
      // Upsert: 201 when the body has no id (created), 200 when it updates.
      handle: async ({ ctx, body }) => {
        const product = await merchant.upsertProduct(ctx, body);
        return new Reply((body as { id?: unknown } | null)?.id == null ? 201 : 200, product);
      },
    },
  });
  route(router, '/merchant/products/:id/publish', {
    post: {
      doc: { tag, summary: 'Put a product on the storefront', permission: Permission.ShopCatalogManage, response: MerchantProduct, errors: merchant.publishProductRefusals },
      handle: ({ ctx, params }) => merchant.publishProduct(ctx, params.id),
    },
  });
  route(router, '/merchant/products/:id/unpublish', {
    post: {
      doc: { tag, summary: 'Take a product off the storefront', permission: Permission.ShopCatalogManage, response: MerchantProduct, errors: merchant.unpublishProductRefusals },
      handle: ({ ctx, params }) => merchant.unpublishProduct(ctx, params.id),
    },
  });
}
