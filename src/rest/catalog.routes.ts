import type { Router } from 'express';
import { z } from 'zod';
import * as brands from '../services/catalog/brand.service.js';
import * as categories from '../services/catalog/category.service.js';
import * as content from '../services/catalog/home-content.service.js';
import * as products from '../services/catalog/product.service.js';
import * as shops from '../services/catalog/shop.service.js';
import { ContentKind } from '../entities/home-content-item.entity.js';
import { FacetsInput, productFacets, productFacetsRefusals } from '../services/catalog/search/facets.service.js';
import { SuggestInput, searchSuggestions } from '../services/catalog/search/suggestions.service.js';
import { route } from './route.js';
import { skuSummaries, SkuSummariesQuery } from '../services/catalog/sku-summaries.js';
import {
  BrandList, CategoryNode, CategoryTree, ContentKindList, Currency, HomeContent, ProductDetail, ProductPage, Shop, ShopPage, ShopProfile,
  SkuSummaryList,
} from './responses/catalog.js';
import { ProductFacets, SearchSuggestionList } from './responses/search.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Catalog';

/** Storefront reads, and the platform admin's catalog writes. */
export function catalogRoutes(router: Router) {
  route(router, '/currency', {
    get: { doc: { tag, summary: 'The base currency of every amount', permission: Permission.Public, response: Currency }, handle: ({ ctx }) => categories.currency(ctx) },
  });
  route(router, '/categories', {
    get: { doc: { tag, summary: 'The whole category tree', permission: Permission.Public, response: CategoryTree }, handle: ({ ctx }) => categories.categoryTree(ctx) },
  });
  route(router, '/categories/:id', {
    get: {
      doc: { tag, summary: 'One category with its subtree', permission: Permission.Public, response: CategoryNode, errors: categories.categorySubtreeRefusals },
      handle: ({ ctx, params }) => categories.categorySubtree(ctx, params.id),
    },
  });

  route(router, '/brands', {
    get: { doc: { tag, summary: 'Brands, in their order', permission: Permission.Public, response: BrandList }, handle: ({ ctx }) => brands.listBrands(ctx) },
  });
  route(router, '/admin/brands', {
    put: {
      doc: {
        tag, summary: 'Replace the brand list', permission: Permission.PlatformContentManage, body: brands.ReplaceBrandsInput, response: BrandList,
        description: 'The complete ordered list: items with `id` keep that brand, items without one are created, brands left out are deleted (their products stay, without a brand).',
      },
      handle: ({ ctx, body }) => brands.replaceBrands(ctx, body),
    },
  });

  route(router, '/shops', {
    get: { doc: { tag, summary: 'Shops', permission: Permission.Public, query: shops.ListShopsInput, response: ShopPage }, handle: ({ ctx, query }) => shops.listShops(ctx, query) },
  });
  route(router, '/shops/:slug', {
    get: {
      doc: { tag, summary: 'One shop with its profile', permission: Permission.Public, params: { slug: shops.Slug }, response: Shop, errors: shops.getShopRefusals },
      handle: ({ ctx, params }) => shops.getShop(ctx, params.slug),
    },
  });
  route(router, '/admin/shops/:id/profile', {
    put: {
      doc: { tag, summary: "Create or replace a shop's profile", permission: Permission.PlatformContentManage, body: shops.ProfileInput, response: ShopProfile, errors: shops.putShopProfileRefusals },
      handle: ({ ctx, params, body }) => shops.putShopProfile(ctx, params.id, body),
    },
  });

  route(router, '/content/home', {
    get: { doc: { tag, summary: "The home page's active content", permission: Permission.Public, response: HomeContent }, handle: ({ ctx }) => content.homeContent(ctx) },
  });
  route(router, '/admin/content', {
    get: { doc: { tag, summary: 'All home content, inactive items too', permission: Permission.PlatformContentManage, response: HomeContent }, handle: ({ ctx }) => content.adminContent(ctx) },
  });
  route(router, '/admin/content/:kind', {
    put: {
      doc: {
        tag, summary: 'Replace one kind of home content', permission: Permission.PlatformContentManage, params: { kind: z.enum(ContentKind) }, body: content.ReplaceContentInput,
        response: ContentKindList, errors: content.replaceHomeContentRefusals,
        description: 'The submitted list replaces the kind in one transaction; one bad destination rejects the whole list.',
      },
      handle: ({ ctx, params, body }) => content.replaceHomeContent(ctx, params.kind, body),
    },
  });

  route(router, '/products', {
    get: {
      doc: {
        tag, summary: 'Published products', permission: Permission.Public, query: products.ListProductsInput, response: ProductPage, errors: products.listProductsRefusals,
        description:
          '`category` covers its whole subtree. `q` matches words of the name, brand, shop, categories and description (partial words and CJK text too); `price_min` and `price_max` bound the lowest SKU price. ' +
          'Newest first by default, most relevant first with `q`; `sort=price` ascending, `sort=sales` best sellers first, unless `order` says otherwise.',
      },
      handle: ({ ctx, query }) => products.listProducts(ctx, query),
    },
  });
  // Before `/products/:id`, which would take `facets` for an id.
  route(router, '/products/facets', {
    get: {
      doc: {
        tag, summary: 'Category, brand, shop and price counts for the listing\'s parameters', permission: Permission.Public, query: FacetsInput, response: ProductFacets, errors: productFacetsRefusals,
        description: 'Takes the listing\'s parameters. Each facet ignores its own filter, so a shopper can widen as well as narrow; categories count their whole subtree.',
      },
      handle: ({ ctx, query }) => productFacets(ctx, query),
    },
  });
  route(router, '/search/suggest', {
    get: {
      doc: { tag, summary: 'Up to 8 brands, categories and products whose names start with `q`', permission: Permission.Public, query: SuggestInput, response: SearchSuggestionList },
      handle: ({ ctx, query }) => searchSuggestions(ctx, query),
    },
  });
  route(router, '/skus', {
    get: {
      doc: { tag, summary: "SKUs of published products among the ids, in their order (a guest cart's lines); others are left out", permission: Permission.Public, query: SkuSummariesQuery, response: SkuSummaryList },
      handle: ({ ctx, query }) => skuSummaries(ctx, query),
    },
  });
  route(router, '/products/:id', {
    get: {
      doc: { tag, summary: 'One published product with its SKUs, shop, brand, category path and rating', permission: Permission.Public, response: ProductDetail, errors: products.getProductRefusals },
      handle: ({ ctx, params }) => products.getProduct(ctx, params.id),
    },
  });
}
