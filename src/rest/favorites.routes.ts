import type { Router } from 'express';
import * as favorites from '../services/accounts/favorites.service.js';
import { PageQuery } from '../shared/pagination.js';
import { route, Reply } from './route.js';
import { FavoriteProduct, FavoriteShop, Favorites } from './responses/accounts.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Favorites';
const noContent = () => new Reply(204, undefined);

export function favoritesRoutes(router: Router) {
  route(router, '/me/favorites', {
    get: {
      doc: { tag, summary: "The customer's favorite products and shops (one page of each)", permission: Permission.Customer, query: PageQuery, response: Favorites },
      handle: ({ ctx, query }) => favorites.myFavorites(ctx, query),
    },
  });
  route(router, '/me/favorites/products/:id', {
    put: { doc: { tag, summary: 'Favorite a product', permission: Permission.Customer, response: FavoriteProduct, errors: favorites.favoriteProductRefusals }, handle: ({ ctx, params }) => favorites.favoriteProduct(ctx, params.id) },
    delete: {
      doc: { tag, summary: 'Unfavorite a product', permission: Permission.Customer, response: null, errors: favorites.unfavoriteProductRefusals },
      handle: async ({ ctx, params }) => (await favorites.unfavoriteProduct(ctx, params.id), noContent()),
    },
  });
  route(router, '/me/favorites/shops/:id', {
    put: { doc: { tag, summary: 'Favorite a shop', permission: Permission.Customer, response: FavoriteShop, errors: favorites.favoriteShopRefusals }, handle: ({ ctx, params }) => favorites.favoriteShop(ctx, params.id) },
    delete: {
      doc: { tag, summary: 'Unfavorite a shop', permission: Permission.Customer, response: null, errors: favorites.unfavoriteShopRefusals },
      handle: async ({ ctx, params }) => (await favorites.unfavoriteShop(ctx, params.id), noContent()),
    },
  });
}
