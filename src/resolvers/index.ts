import { AuthResolver } from './auth.resolver.js';
import { PurchaseResolver } from './purchase.resolver.js';
import { FlashSaleResolver } from './flash-sale.resolver.js';

export const resolvers = [AuthResolver, PurchaseResolver, FlashSaleResolver] as const;
