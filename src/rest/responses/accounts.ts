import { z } from 'zod';
import { PlatformRole, Role } from '../../entities/user.entity.js';
import { ShopRole } from '../../entities/shop-membership.entity.js';
import { Permission } from '../../shared/permissions.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { CustomerView } from '../../services/accounts/customer-admin.service.js';
import { count, id, money, named, page, timestamp } from './common.js';

export const Membership = named('Membership', z.strictObject({ shopId: id, role: z.enum(ShopRole), shopName: z.string() }));
export const User = named(
  'User',
  z.strictObject({
    id,
    email: z.string(),
    displayName: z.string(),
    role: z.enum(Role),
    shopId: id.nullable().describe('The shop this request acts for (X-Shop-Id, or the only membership)'),
    platformRole: z.enum(PlatformRole).nullable(),
    memberships: z.array(Membership),
    permissions: z.array(z.enum(Permission)).describe("What this request may do: the permissions of its acting shop's role and of the platform role (public and signed_in are not listed)"),
    createdAt: timestamp,
  }),
);
export const Session = named('Session', z.strictObject({ token: z.string(), expiresAt: timestamp, deviceToken: z.string(), user: User }));

export const AccountStats = named(
  'AccountStats',
  z.strictObject({
    currency: z.string(),
    available: z.number().int(),
    frozen: z.number().int(),
    points: z.number().int(),
    orders: z.record(z.enum(OrderStatus), count),
  }),
);

const ShopSummary = named('ShopSummary', z.strictObject({ id, slug: z.string(), name: z.string(), logoUrl: z.string().optional() }));
const ProductSummary = named(
  'ProductSummary',
  z.strictObject({ id, name: z.string(), imageUrl: z.string().optional(), priceFrom: money, available: z.boolean(), shop: ShopSummary }),
);
export const FavoriteProduct = named('FavoriteProduct', z.strictObject({ product: ProductSummary, favoritedAt: timestamp }));
export const FavoriteShop = named('FavoriteShop', z.strictObject({ shop: ShopSummary, favoritedAt: timestamp }));
export const Favorites = named('Favorites', z.strictObject({ products: page(FavoriteProduct), shops: page(FavoriteShop) }));

export const Customer = named('Customer', CustomerView);
export const CustomerPage = named('CustomerPage', page(Customer));
