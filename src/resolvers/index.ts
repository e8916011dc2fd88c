import { AuthResolver } from './auth.resolver.js';
import { CatalogResolver, CategoryFieldsResolver, ShopResolver } from './catalog.resolver.js';
import { HomeContentResolver } from './home-content.resolver.js';
import { ProductResolver } from './product.resolver.js';
import { OrderItemResolver, PurchaseResolver } from './purchase.resolver.js';
import { FavoritesResolver } from './favorites.resolver.js';
import { AddressBookResolver } from './address-book.resolver.js';
import { PointsResolver } from './points.resolver.js';
import { CouponResolver } from './coupon.resolver.js';
import { EventsResolver } from './events.resolver.js';
import { GroupBuyResolver } from './group-buy.resolver.js';
import { FlashSaleResolver } from './flash-sale.resolver.js';
import { ReviewResolver } from './review.resolver.js';
import { FreightResolver } from './freight.resolver.js';
import { RefundResolver } from './refund.resolver.js';
import { OperationsResolver } from './operations.resolver.js';
import { SearchResolver } from './search.resolver.js';
import { PageResolver } from './page.resolver.js';
import { SettlementResolver } from './settlement.resolver.js';
import { WebhookResolver } from './webhook.resolver.js';
import { PaymentResolver } from './payment.resolver.js';
import { ShopApplicationResolver } from './shop-application.resolver.js';
import { DisputeResolver } from './dispute.resolver.js';
import { CustomerAdminResolver } from './customer-admin.resolver.js';
import { AdminOrderResolver } from './admin-order.resolver.js';
import { AdminShopResolver } from './admin-shop.resolver.js';
import { ShopStateResolver } from './shop-state.resolver.js';
import { AuditLogResolver } from './audit-log.resolver.js';
import { ShopMemberResolver } from './shop-member.resolver.js';
import { PlatformStaffResolver } from './platform-staff.resolver.js';
import { MediaResolver } from './media.resolver.js';

export const resolvers = [
  AuthResolver,
  CatalogResolver,
  CategoryFieldsResolver,
  ShopResolver,
  HomeContentResolver,
  ProductResolver,
  PurchaseResolver,
  OrderItemResolver,
  CouponResolver,
  EventsResolver,
  GroupBuyResolver,
  FlashSaleResolver,
  ReviewResolver,
  FreightResolver,
  RefundResolver,
  PointsResolver,
  FavoritesResolver,
  AddressBookResolver,
  PaymentResolver,
  OperationsResolver,
  SearchResolver,
  WebhookResolver,
  PageResolver,
  SettlementResolver,
  ShopApplicationResolver,
  DisputeResolver,
  CustomerAdminResolver,
  AdminOrderResolver,
  AdminShopResolver,
  ShopStateResolver,
  AuditLogResolver,
  ShopMemberResolver,
  PlatformStaffResolver,
  MediaResolver,
] as const;
