import { AuthToken } from './auth-token.entity.js';
import { AuthAttemptCount } from './auth-attempt.entity.js';
import { Balance } from './balance.entity.js';
import { Brand } from './brand.entity.js';
import { Category } from './category.entity.js';
import { FavoriteProduct, FavoriteShop } from './favorite.entity.js';
import { HomeContentItem } from './home-content-item.entity.js';
import { LedgerEntry } from './ledger-entry.entity.js';
import { PointsProduct } from './points-product.entity.js';
import { Product } from './product.entity.js';
import { Redemption } from './redemption.entity.js';
import { Shop } from './shop.entity.js';
import { ShopProfile } from './shop-profile.entity.js';
import { ShopApplication } from './shop-application.entity.js';
import { ShopMembership } from './shop-membership.entity.js';
import { MemberInvitation } from './member-invitation.entity.js';
import { StaffInvitation } from './staff-invitation.entity.js';
import { MediaAsset } from './media-asset.entity.js';
import { OutgoingMail } from './outgoing-mail.entity.js';
import { Dispute } from './dispute.entity.js';
import { Sku } from './sku.entity.js';
import { User } from './user.entity.js';
import { CartItem } from './cart-item.entity.js';
import { Order } from './order.entity.js';
import { OrderItem } from './order-item.entity.js';
import { Shipment } from './shipment.entity.js';
import { ShipmentItem } from './shipment-item.entity.js';
import { Invoice } from './invoice.entity.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { CouponTemplate } from './coupon-template.entity.js';
import { Coupon } from './coupon.entity.js';
import { GroupBuyActivity, BuyingGroup, GroupMembership } from './group-buy.entity.js';
import { FlashSale, FlashSaleItem, FlashSalePurchase } from './flash-sale.entity.js';
import { Review } from './review.entity.js';
import { FreightTemplate, FreightTemplateRegion } from './freight-template.entity.js';
import { ShippingCompany } from './shipping-company.entity.js';
import { Refund, RefundItem } from './refund.entity.js';
import { CatalogVersion, SalesChange, SalesChangeHorizon, SalesVersion } from './listing-version.entity.js';
import { SearchSuggestion } from './search-suggestion.entity.js';
import { StockMovement } from './stock-movement.entity.js';
import { SavedAddress } from './saved-address.entity.js';
import { CommissionRate, Payout, PayoutBatch } from './settlement.entity.js';
import { Payment, PaymentEvent, PaymentOrder, PaymentRefund } from './payment.entity.js';
import { AuditEntry } from './audit-entry.entity.js';
import { Event, EventSequence, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './event.entity.js';

/** Every entity, listed explicitly so the ORM needs no folder scanning (works the same in tests and dist). */
export const entities = [
  AuthToken, AuthAttemptCount, Balance, Brand, Category, HomeContentItem, LedgerEntry, Product, Shop, ShopProfile, Sku, User,
  CartItem, Order, OrderItem, Shipment, ShipmentItem, Invoice, IdempotencyKey,
  CouponTemplate, Coupon,
  GroupBuyActivity, BuyingGroup, GroupMembership,
  FlashSale, FlashSaleItem, FlashSalePurchase,
  Review, FreightTemplate, FreightTemplateRegion, ShippingCompany, Refund, RefundItem,
  FavoriteProduct, FavoriteShop, PointsProduct, Redemption,
  CatalogVersion, SalesVersion, SalesChange, SalesChangeHorizon, SearchSuggestion, StockMovement, SavedAddress,
  CommissionRate, PayoutBatch, Payout,
  Event, EventSequence, WebhookEndpoint, WebhookDelivery, WebhookAttempt,
  Payment, PaymentOrder, PaymentEvent, PaymentRefund,
  ShopApplication, Dispute, ShopMembership, MemberInvitation, StaffInvitation,
  AuditEntry, MediaAsset, OutgoingMail,
];
