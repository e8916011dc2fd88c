import { registerEnumType } from 'type-graphql';
import { ContentKind } from '../../entities/home-content-item.entity.js';
import { PlatformRole, Role } from '../../entities/user.entity.js';
import { ShopRole } from '../../entities/shop-membership.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { GroupState } from '../../entities/group-buy.entity.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { SuggestionKind } from '../../entities/search-suggestion.entity.js';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import { CouponTemplateStatus, DiscountKind } from '../../entities/coupon-template.entity.js';
import { RedemptionStatus } from '../../entities/redemption.entity.js';
import { PayoutStatus } from '../../entities/settlement.entity.js';
import { ShopApplicationStatus } from '../../entities/shop-application.entity.js';
import { DisputeStatus } from '../../entities/dispute.entity.js';
import { CustomerState, customerState } from '../../services/accounts/customer-admin.service.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { PaymentRefundStatus, PaymentStatus } from '../../entities/payment.entity.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../../config.js';
import { CouponState, couponTemplateStatus } from '../../services/promotions/coupon.service.js';
import { FlashSaleState } from '../../services/promotions/flash-sale.service.js';
import { MerchantProductSort } from '../../services/catalog/merchant-product.service.js';
import { ShopOrderSort } from '../../services/orders/order.service.js';
import { MergeOutcome } from '../../services/checkout/cart-view.js';
import type { InvoiceView } from '../../services/orders/invoice.service.js';
import { EventTypes } from '../../services/events/event-types.js';
import { WebhookDisabledReason } from '../../entities/event.entity.js';
import { enumValueName } from '../../graphql/spelling.js';
import { REGION_CODES } from '../../services/shipping/regions.js';
import { CANCEL_REASONS } from '../../services/orders/order-lifecycle.js';
import { LEDGER_REASONS } from '../../services/accounts/ledger.service.js';
import { PAYMENT_DEVICES, type PaymentDevice } from '../../services/payments/provider.js';
import { AUDIT_ACTIONS } from '../../entities/audit-entry.entity.js';
import { Permission } from '../../shared/permissions.js';
import { NameSort } from '../../shared/pagination.js';
import type { z } from '../../shared/validate.js';


/**
 * Registers a closed set as a GraphQL enum whose value names are SCREAMING_SNAKE (`PENDING_PAYMENT`)
 * while each still resolves to the internal spelling (`pending_payment`): services receive and
 * return the same strings from both doors. Field decorators name the returned object
 * (`@Field(() => OrderStatusEnum) status!: OrderStatus`).
 */
function schemaEnum<V extends string>(
  values: Record<string, V>,
  name: string,
  description?: string,
  valueDescriptions: Partial<Record<V, string>> = {},
): Record<string, V> {
  const byName: Record<string, V> = {};
  const valuesConfig: Record<string, { description: string }> = {};
  for (const value of Object.values(values)) {
    const key = enumValueName(value);
    byName[key] = value;
    const description = valueDescriptions[value];
    if (description) valuesConfig[key] = { description };
  }
  registerEnumType(byName, { name, description, valuesConfig });
  const key = enumKey(Object.values(values));
  // Two enums of one value set cannot be told apart by a view's schema: its field would need to name one.
  enumsByValues.set(key, enumsByValues.has(key) ? 'ambiguous' : byName);
  return byName;
}

/** The registered enums by their value set, for object types made from the views' schemas (object-type.ts). */
const enumsByValues = new Map<string, Record<string, string> | 'ambiguous'>();
const enumKey = (values: readonly string[]) => [...values].sort().join('|');

/** The GraphQL enum registered for exactly these values (a view's `z.enum`), or why there is none. */
export function enumOfValues(values: readonly string[]): Record<string, string> | 'ambiguous' | undefined {
  return enumsByValues.get(enumKey(values));
}

/** The enums named for a view's `z.enum` schema, where another enum has the same values (`enumOfSchema`). */
const enumsBySchema = new Map<z.ZodType, Record<string, string>>();

/**
 * Names the GraphQL enum of a view's `z.enum` whose values another enum shares (a coupon template's
 * status and a customer's state are both ACTIVE or DISABLED): a field of that schema, or of a copy of
 * it (`.describe()`), is of this enum.
 */
function schemaIsEnum(schema: z.ZodType, graphqlEnum: Record<string, string>): void {
  enumsBySchema.set(schema, graphqlEnum);
}

/** The GraphQL enum named for this schema or the one it was derived from, if any (object-type.ts). */
export function enumOfSchema(schema: z.ZodType): Record<string, string> | undefined {
  for (let at: z.ZodType | undefined = schema; at; at = (at._zod as { parent?: z.ZodType }).parent) {
    const found = enumsBySchema.get(at);
    if (found) return found;
  }
  return undefined;
}

/** Values are the REST spellings, so both doors hand the service the same strings. */
export enum ProductSort {
  Price = 'price',
  Sales = 'sales',
}

export enum SortOrder {
  Asc = 'asc',
  Desc = 'desc',
}

/** An invoice's state: `not_issued` until the shop issues it. */
export type InvoiceStatus = InvoiceView['status'];

export const RoleEnum = schemaEnum(Role, 'Role', 'The kind of account: what it may do comes from its roles (ShopRole, PlatformRole)');
export const ShopRoleEnum = schemaEnum(ShopRole, 'ShopRole', "A member's role in a shop's staff");
export const PlatformRoleEnum = schemaEnum(PlatformRole, 'PlatformRole', "A platform staff member's role");
export const PermissionEnum = schemaEnum(Permission, 'Permission', 'What an operation needs, as a role grants it: `shop.orders.read` is SHOP_ORDERS_READ (docs/api.md, "Staff and the shop a request acts for")');
export const ProductStatusEnum = schemaEnum(
  ProductStatus,
  'ProductStatus',
  'Publish lifecycle: DRAFT -> PUBLISHED -> UNPUBLISHED -> PUBLISHED ...; HELD: published, but its shop is suspended or closed (published again when the shop is reinstated)',
);
export const ContentKindEnum = schemaEnum(ContentKind, 'ContentKind', 'The four home content lists');
export const ProductSortEnum = schemaEnum(ProductSort, 'ProductSort', 'Sort key of the product listing', {
  price: 'Lowest SKU price; ascending unless `order` says otherwise',
  sales: 'soldCount; best sellers first unless `order` says otherwise',
});
export const SortOrderEnum = schemaEnum(SortOrder, 'SortOrder');
export const MerchantProductSortEnum = schemaEnum(MerchantProductSort, 'MerchantProductSort', "The order of the shop's own product list: newest or oldest first, by name, or by lowest SKU price; ties by id");
export const ShopOrderSortEnum = schemaEnum(ShopOrderSort, 'ShopOrderSort', "The order of an order list (the shop's, or every shop's for the platform): newest or oldest first, or by total; ties by id");
export const NameSortEnum = schemaEnum(NameSort, 'NameSort', "The order of the platform's shop and customer lists: newest or oldest first, or by name; ties by id");
export const OrderStatusEnum = schemaEnum(
  OrderStatus,
  'OrderStatus',
  'PENDING_PAYMENT -> PAID -> SHIPPED -> DELIVERED -> COMPLETED (after-sale window over), or PENDING_PAYMENT -> CANCELLED; a group order: PENDING_PAYMENT -> AWAITING_GROUP -> PAID (group successful) or CANCELLED (group expired)',
);
export const ItemPricingEnum = schemaEnum(ItemPricing, 'ItemPricing', 'How an order item was priced');
export const InvoiceStatusEnum = schemaEnum<InvoiceStatus>({ NotIssued: 'not_issued', Issued: 'issued' }, 'InvoiceStatus', 'NOT_ISSUED until the shop issues the invoice');
export const DiscountKindEnum = schemaEnum(DiscountKind, 'DiscountKind', 'FIXED: amountOff minor units off; PERCENT: percentOff (1..100) rounded down, capped by maxDiscount');
export const CouponTemplateStatusEnum = schemaEnum(CouponTemplateStatus, 'CouponTemplateStatus');
schemaIsEnum(couponTemplateStatus, CouponTemplateStatusEnum);
export const CouponStateEnum = schemaEnum(CouponState, 'CouponState', 'EXPIRED: now is past validUntil and the coupon was not used');
export const GroupStateEnum = schemaEnum(
  GroupState,
  'GroupState',
  'OPEN -> SUCCESSFUL (every seat paid), OPEN -> EXPIRED (lifetime ended), OPEN -> CANCELLED (opener cancelled before any seat was paid)',
);
export const FlashSaleStateEnum = schemaEnum(FlashSaleState, 'FlashSaleState', 'Where now falls in the window [startsAt, endsAt)');
export const RedemptionStatusEnum = schemaEnum(RedemptionStatus, 'RedemptionStatus', 'Where a redemption order stands');
export const RefundKindEnum = schemaEnum(RefundKind, 'RefundKind', 'REFUND: money only, for units not shipped; RETURN: delivered goods come back, then money');
export const RefundStatusEnum = schemaEnum(
  RefundStatus,
  'RefundStatus',
  'refund: REQUESTED -> COMPLETED | REJECTED | CANCELLED; return: REQUESTED -> APPROVED -> SHIPPED_BACK -> COMPLETED, REQUESTED -> REJECTED, REQUESTED | APPROVED -> CANCELLED',
);
export const ShopApplicationStatusEnum = schemaEnum(
  ShopApplicationStatus,
  'ShopApplicationStatus',
  'SUBMITTED -> APPROVED (the shop exists) | REJECTED (with a reason) | WITHDRAWN (by the applicant)',
);
export const ShopStatusEnum = schemaEnum(
  ShopStatus,
  'ShopStatus',
  'ACTIVE -> SUSPENDED (with a reason; its products held) -> ACTIVE (reinstated); ACTIVE | SUSPENDED -> CLOSED (final)',
);
export const CustomerStateEnum = schemaEnum(CustomerState, 'CustomerState', 'ACTIVE, or DISABLED by a platform admin (cannot sign in)');
schemaIsEnum(customerState, CustomerStateEnum);
export const DisputeStatusEnum = schemaEnum(
  DisputeStatus,
  'DisputeStatus',
  'OPEN -> REFUNDED (the platform paid the customer, fully or partly, from the shop) | UPHELD (the rejection stands)',
);
export const PayoutStatusEnum = schemaEnum(
  PayoutStatus,
  'PayoutStatus',
  'PENDING (in transit to the bank) -> PAID | FAILED; PAID -> FAILED when the bank returns it after reporting it paid',
);
export const PaymentRefundStatusEnum = schemaEnum(PaymentRefundStatus, 'PaymentRefundStatus', 'Money on its way back to a payment\'s method: PENDING at the provider, then SUCCEEDED or FAILED (then back on the balance)');
export const PaymentStatusEnum = schemaEnum(
  PaymentStatus,
  'PaymentStatus',
  'PENDING -> (AUTHORIZED ->) CAPTURED, or PENDING | AUTHORIZED -> FAILED | CANCELLED | EXPIRED; a closed payment the provider captured after all becomes CAPTURED',
);
export const PaymentMethodEnum = schemaEnum(
  Object.fromEntries(PAYMENT_METHODS.map((m) => [m, m])) as Record<string, PaymentMethod>,
  'PaymentMethod',
  'How a checkout is paid: WALLET (the available balance), SANDBOX (development gateway), STRIPE, ALIPAY',
);
export const PaymentDeviceEnum = schemaEnum(
  Object.fromEntries(PAYMENT_DEVICES.map((d) => [d, d])) as Record<string, PaymentDevice>,
  'PaymentDevice',
  "Where the customer pays: MOBILE gets a provider's page for phones (Alipay's mobile-web pay), DESKTOP its page for computers",
);
export const BalanceKindEnum = schemaEnum(BalanceKind, 'BalanceKind', 'An account of the ledger: a customer, a shop or the platform');
export const ShopAccountEnum = schemaEnum(
  { ShopPending: BalanceKind.ShopPending, ShopAvailable: BalanceKind.ShopAvailable, ShopInTransit: BalanceKind.ShopInTransit, ShopDebt: BalanceKind.ShopDebt },
  'ShopAccount',
  "A shop's own accounts",
);
export const SuggestionKindEnum = schemaEnum(SuggestionKind, 'SuggestionKind', 'What a search suggestion leads to');
export const EventTypeEnum = schemaEnum(EventTypes, 'EventType', 'Kinds of domain event; the value `ORDER_PLACED` is the event `order.placed`, and so on');
export const MergeOutcomeEnum = schemaEnum(MergeOutcome, 'MergeOutcome', 'What became of a guest cart line at sign-in', {
  merged: 'Added up in full',
  capped: 'Added up to the stock (one unit kept when none is left)',
  unavailable: 'The product is not on sale any more: not added',
  not_found: 'No such SKU: not added',
});
/** A closed set kept as a list of its values (`as const`), as a record for `schemaEnum`. */
const valuesOf = <V extends string>(values: readonly V[]): Record<string, V> => Object.fromEntries(values.map((v) => [v, v]));

export const RegionCodeEnum = schemaEnum(valuesOf(REGION_CODES), 'RegionCode', 'A region the mall ships to, by its ISO 3166-2:CN code (`CN_BJ` is CN-BJ); the list with names: `regions`');
export const OrderCancelReasonEnum = schemaEnum(valuesOf(CANCEL_REASONS), 'OrderCancelReason', 'Why an order was cancelled', {
  customer: 'The customer cancelled it before paying',
  payment_timeout: 'It was not paid within PAYMENT_WINDOW_MINUTES',
  group_expired: 'Its group did not fill before the group expired',
  refunded: 'Every unit was refunded before any shipped',
});
export const LedgerReasonEnum = schemaEnum(valuesOf(LEDGER_REASONS), 'LedgerReason', 'Why an account of the ledger changed (docs/api.md, "Settlement")');
export const WebhookDisabledReasonEnum = schemaEnum(WebhookDisabledReason, 'WebhookDisabledReason', 'Why a webhook endpoint is off', {
  [WebhookDisabledReason.Failing]: 'Every attempt failed for WEBHOOK_DISABLE_AFTER_SECONDS',
  [WebhookDisabledReason.Gone]: 'It answered 410 Gone',
  [WebhookDisabledReason.Operator]: 'Its owner turned it off',
});

export const AuditActionEnum = schemaEnum(Object.fromEntries(AUDIT_ACTIONS.map((a) => [a, a])), 'AuditAction', 'What a write did to the row an audit entry names');
