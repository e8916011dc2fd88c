import { AuthResolver } from './auth.resolver.js';
import { PurchaseResolver } from './purchase.resolver.js';

export const resolvers = [AuthResolver, PurchaseResolver] as const;
