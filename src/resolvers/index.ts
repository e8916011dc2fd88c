import { AuthResolver } from './auth.resolver.js';
import { PurchaseResolver } from './purchase.resolver.js';
import { GroupBuyResolver } from './group-buy.resolver.js';

export const resolvers = [AuthResolver, PurchaseResolver, GroupBuyResolver] as const;
