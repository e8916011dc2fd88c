import { AuthResolver } from './auth.resolver.js';
import { FavoritesResolver } from './favorites.resolver.js';
import { PointsResolver } from './points.resolver.js';
import { PurchaseResolver } from './purchase.resolver.js';

export const resolvers = [AuthResolver, PurchaseResolver, PointsResolver, FavoritesResolver] as const;
