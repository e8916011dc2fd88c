import { AuthResolver } from './auth.resolver.js';
import { PurchaseResolver } from './purchase.resolver.js';
import { ReviewResolver } from './review.resolver.js';
import { FreightResolver } from './freight.resolver.js';
import { RefundResolver } from './refund.resolver.js';

export const resolvers = [AuthResolver, PurchaseResolver, ReviewResolver, FreightResolver, RefundResolver] as const;
