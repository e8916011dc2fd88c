import type { Router } from 'express';
import * as favorites from '../accounts/favorites.service.js';
import { route, Reply } from './route.js';

const noContent = () => new Reply(204, undefined);

export function favoritesRoutes(router: Router) {
  route(router, '/me/favorites', { get: ({ ctx, query }) => favorites.myFavorites(ctx, query) });
  route(router, '/me/favorites/products/:id', {
    put: ({ ctx, params }) => favorites.favoriteProduct(ctx, params.id),
    delete: async ({ ctx, params }) => (await favorites.unfavoriteProduct(ctx, params.id), noContent()),
  });
  route(router, '/me/favorites/shops/:id', {
    put: ({ ctx, params }) => favorites.favoriteShop(ctx, params.id),
    delete: async ({ ctx, params }) => (await favorites.unfavoriteShop(ctx, params.id), noContent()),
  });
}
