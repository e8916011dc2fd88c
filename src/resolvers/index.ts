import { AuthResolver } from './auth.resolver.js';
import { PurchaseResolver } from './purchase.resolver.js';
import { CouponResolver } from './coupon.resolver.js';

export const resolvers = [AuthResolver, PurchaseResolver, CouponResolver] as const;
