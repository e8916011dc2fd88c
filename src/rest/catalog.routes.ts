import type { Router } from 'express';
import * as brands from '../catalog/brand.service.js';
import * as categories from '../catalog/category.service.js';
import * as content from '../catalog/home-content.service.js';
import * as products from '../catalog/product.service.js';
import * as shops from '../catalog/shop.service.js';
import { productFacets } from '../catalog/search/facets.service.js';
import { searchSuggestions } from '../catalog/search/suggestions.service.js';
import { route } from './route.js';

/** Storefront reads, and the platform admin's catalog writes. */
export function catalogRoutes(router: Router) {
  route(router, '/currency', { get: ({ ctx }) => categories.currency(ctx) });
  route(router, '/categories', { get: ({ ctx }) => categories.categoryTree(ctx) });
  route(router, '/categories/:id', { get: ({ ctx, params }) => categories.categorySubtree(ctx, params.id) });

  route(router, '/brands', { get: ({ ctx }) => brands.listBrands(ctx) });
  route(router, '/admin/brands', { put: ({ ctx, body }) => brands.replaceBrands(ctx, body) });

  route(router, '/shops', { get: ({ ctx, query }) => shops.listShops(ctx, query) });
  route(router, '/shops/:slug', { get: ({ ctx, params }) => shops.getShop(ctx, params.slug) });
  route(router, '/admin/shops/:id/profile', { put: ({ ctx, params, body }) => shops.putShopProfile(ctx, params.id, body) });

  route(router, '/content/home', { get: ({ ctx }) => content.homeContent(ctx) });
  route(router, '/admin/content', { get: ({ ctx }) => content.adminContent(ctx) });
  route(router, '/admin/content/:kind', { put: ({ ctx, params, body }) => content.replaceHomeContent(ctx, params.kind, body) });

  route(router, '/products', { get: ({ ctx, query }) => products.listProducts(ctx, query) });
  // Before `/products/:id`, which would take `facets` for an id.
  route(router, '/products/facets', { get: ({ ctx, query }) => productFacets(ctx, query) });
  route(router, '/search/suggest', { get: ({ ctx, query }) => searchSuggestions(ctx, query) });
  route(router, '/products/:id', { get: ({ ctx, params }) => products.getProduct(ctx, params.id) });
}
