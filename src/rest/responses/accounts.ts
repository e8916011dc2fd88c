import { z } from 'zod';
import { OrderStatus } from '../../entities/order.entity.js';
import { MembershipView, SessionView, UserView } from '../../services/accounts/user-view.js';
import { CustomerView } from '../../services/accounts/customer-admin.service.js';
import { count, id, money, named, page, timestamp } from './common.js';

export const Membership = named('Membership', MembershipView);
export const User = named('User', UserView);
export const Session = named('Session', SessionView);

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
