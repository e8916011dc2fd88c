import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Role } from '../entities/user.entity.js';
import type { ServiceContext } from '../services/context.js';
import { favoritedProductIds, favoritedShopIds } from '../services/favorites.service.js';

type Lookup = (em: EntityManager, userId: number, ids: readonly number[]) => Promise<Set<number>>;

function favoritedLoader(ctx: ServiceContext, lookup: Lookup): DataLoader<number, boolean> {
  const customerId = ctx.actor?.role === Role.Customer ? ctx.actor.userId : null;
  return new DataLoader<number, boolean>(async (ids) => {
    // Anyone but a customer has no favorites: answer without asking the database.
    if (customerId === null) return ids.map(() => false);
    const favorited = await lookup(ctx.em, customerId, ids);
    return ids.map((id) => favorited.has(id));
  });
}

/**
 * Per-request loaders for "did the caller favorite this?" on product and shop reads: every
 * `favorited` field of one GraphQL operation becomes one query per kind.
 */
export function favoriteLoaders(ctx: ServiceContext) {
  return { product: favoritedLoader(ctx, favoritedProductIds), shop: favoritedLoader(ctx, favoritedShopIds) };
}
export type FavoriteLoaders = ReturnType<typeof favoriteLoaders>;
