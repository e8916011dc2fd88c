import { AuthResolver } from './auth.resolver.js';
import { FavoritesResolver } from './favorites.resolver.js';
import { PointsResolver } from './points.resolver.js';

export const resolvers = [AuthResolver, PointsResolver, FavoritesResolver] as const;
