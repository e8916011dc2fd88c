import { z } from 'zod';
import { AccountStatsView, OrderCountsView } from '../../services/accounts/account-stats-view.js';
import { MembershipView, SessionView, UserView } from '../../services/accounts/user-view.js';
import { FavoriteProductView, FavoriteShopSummaryView, FavoriteShopView, ProductSummaryView } from '../../services/accounts/favorites-view.js';
import { CustomerView } from '../../services/accounts/customer-admin.service.js';
import { named, page } from './common.js';

export const Membership = named('Membership', MembershipView);
export const User = named('User', UserView);
export const Session = named('Session', SessionView);

export const OrderCounts = named('OrderCounts', OrderCountsView);
export const AccountStats = named('AccountStats', AccountStatsView);

// Named for their components: REST's ShopSummary is the favorites list's shop (GraphQL's FavoriteShopSummary).
named('ShopSummary', FavoriteShopSummaryView);
named('ProductSummary', ProductSummaryView);
export const FavoriteProduct = named('FavoriteProduct', FavoriteProductView);
export const FavoriteShop = named('FavoriteShop', FavoriteShopView);
export const Favorites = named('Favorites', z.strictObject({ products: page(FavoriteProduct), shops: page(FavoriteShop) }));

export const Customer = named('Customer', CustomerView);
export const CustomerPage = named('CustomerPage', page(Customer));
