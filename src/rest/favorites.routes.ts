import type { Router } from 'express';
import * as favorites from '../services/accounts/favorites.service.js';
import { PageQuery } from '../shared/pagination.js';
import { route, Reply } from './route.js';
import { FavoriteProduct, FavoriteShop, Favorites } from './responses/accounts.js';

const tag = 'Favorites';
const noContent = () => new Reply(204, undefined);

export function favoritesRoutes(router: Router) {
  route(router, '/me/favorites', {
    get: {
      doc: { tag, summary: "The customer's favorite products and shops (one page of each)", access: 'customer', query: PageQuery, response: Favorites },
      handle: ({ ctx, query }) => favorites.myFavorites(ctx, query),
    },
  });
  route(router, '/me/favorites/products/:id', {
    put: { doc: { tag, summary: 'Favorite a product', access: 'customer', response: FavoriteProduct, errors: favorites.favoriteProductRefusals }, handle: ({ ctx, params }) => favorites.favoriteProduct(ctx, params.id) },
    delete: {
      doc: { tag, summary: 'Unfavorite a product', access: 'customer', response: null, errors: favorites.unfavoriteProductRefusals },
      handle: async ({ ctx, params }) => (await favorites.unfavoriteProduct(ctx, params.id), noContent()),
    },
  });
  route(router, '/me/favorites/shops/:id', {
    put: { doc: { tag, summary: 'Favorite a shop', access: 'customer', response: FavoriteShop, errors: favorites.favoriteShopRefusals }, handle: ({ ctx, params }) => favorites.favoriteShop(ctx, params.id) },
    delete: {
      doc: { tag, summary: 'Unfavorite a shop', access: 'customer', response: null, errors: favorites.unfavoriteShopRefusals },
      handle: async ({ ctx, params }) => (await favorites.unfavoriteShop(ctx, params.id), noContent()),
    },
  });
}
