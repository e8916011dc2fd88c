import type { ErrorDetailKey } from './error-details.js';

/**
 * What a code is: its HTTP status, and the keys of `details` it carries (the facts of the refusal:
 * error-details.ts says each key's kind). `required` keys are in every answer of the code, `optional`
 * ones in some (a key the thrower may not know, such as the ids of a refusal answered by a unique
 * key); a code with neither answers no `details`.
 */
export interface ErrorCodeDeclaration {
  readonly status: number;
  readonly required?: readonly ErrorDetailKey[];
  readonly optional?: readonly ErrorDetailKey[];
}

/**
 * Every error code the service can answer, with its HTTP status and its details' keys: `AppError`
 * takes only these codes, and for each only the keys declared here (src/errors.ts). A REST
 * operation's description names its own codes (`errors`); the OpenAPI document adds the ones every
 * operation shares, and describes each code's answer, details included, from this table.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400 },
  DESTINATION_INVALID: { status: 400, required: ['problems'] },
  JSON_TOO_DEEP: { status: 400, required: ['max_depth'] },
  MALFORMED_ENCODING: { status: 400 },
  MALFORMED_JSON: { status: 400 },
  NOTIFICATION_REJECTED: { status: 400, required: ['method'] },
  REQUEST_ABORTED: { status: 400 },
  SORT_UNSUPPORTED: { status: 400, required: ['parameter', 'value', 'allowed'] },
  VALIDATION_FAILED: { status: 400, required: ['problems'] },
  INVALID_CREDENTIALS: { status: 401 },
  ACCOUNT_DISABLED: { status: 401 },
  TOKEN_EXPIRED: { status: 401 },
  TOKEN_INVALID: { status: 401 },
  UNAUTHENTICATED: { status: 401 },
  FORBIDDEN: { status: 403 },
  ROUTE_NOT_FOUND: { status: 404 },
  METHOD_NOT_ALLOWED: { status: 405, required: ['allowed'] },
  NOT_FOUND: { status: 404, optional: ['id', 'slug', 'kind', 'allowed', 'method', 'activity_id', 'application_id', 'batch_id', 'customer_id', 'dispute_id', 'flash_sale_id', 'group_id', 'invitation_id', 'order_id', 'order_item_id', 'payment_id', 'payout_id', 'product_id', 'refund_id', 'review_id', 'shop_id', 'sku_id', 'template_id', 'user_id'] },
  INVITATION_INVALID: { status: 404 },
  CONFLICT: { status: 409 },
  CART_CHANGED: { status: 409, required: ['customer_id'] },
  FLASH_SALE_LIMIT_CHANGED: { status: 409, required: ['customer_id'] },
  FLASH_SALE_STOCK_CHANGED: { status: 409, required: ['flash_sale_item_id'] },
  COUPON_ALREADY_CLAIMED: { status: 409, optional: ['template_id'] },
  EMAIL_TAKEN: { status: 409 },
  FLASH_SALE_HAS_ORDERS: { status: 409 },
  FLASH_SALE_OVERLAP: { status: 409, optional: ['sku_id'] },
  FREIGHT_TEMPLATE_IN_USE: { status: 409, required: ['template_id'] },
  GROUP_ALREADY_JOINED: { status: 409, optional: ['group_id'] },
  GROUP_BUY_HAS_GROUPS: { status: 409, required: ['activity_id'] },
  INVOICE_ALREADY_ISSUED: { status: 409 },
  ORDER_NOT_DELIVERED: { status: 409, required: ['status'] },
  ORDER_NOT_REFUNDABLE: { status: 409, required: ['status'] },
  ORDER_NOT_RETURNABLE: { status: 409, required: ['status'] },
  ORDER_NOT_SHIPPABLE: { status: 409, required: ['status'] },
  ORDER_STATE_CONFLICT: { status: 409, required: ['status', 'transition'], optional: ['expected', 'order_id'] },
  POINTS_PRICE_CHANGED: { status: 409, required: ['price'] },
  PRODUCT_STATE_CONFLICT: { status: 409, required: ['status'] },
  REDEMPTION_NOT_PENDING: { status: 409, required: ['status'] },
  RESOURCE_LOCKED: { status: 409, required: ['retry_after_seconds'] },
  REFUND_WRONG_STATE: { status: 409, optional: ['status', 'expected', 'kind'] },
  DISPUTE_EXISTS: { status: 409, optional: ['refund_id', 'dispute_id'] },
  CUSTOMER_WRONG_STATE: { status: 409, required: ['customer_id', 'status', 'expected'] },
  DISPUTE_WRONG_STATE: { status: 409, required: ['dispute_id', 'status', 'expected'] },
  REFUND_NOT_REJECTED: { status: 409, required: ['refund_id', 'status'] },
  SHOP_APPLICATION_OPEN: { status: 409, optional: ['application_id'] },
  SHOP_APPLICATION_WRONG_STATE: { status: 409, required: ['application_id', 'status', 'expected'] },
  SHOP_APPLICANT_NOT_CUSTOMER: { status: 409, required: ['application_id'] },
  SHOP_SLUG_TAKEN: { status: 409, optional: ['slug', 'shop_id'] },
  SHOP_WRONG_STATE: { status: 409, required: ['shop_id', 'status', 'expected'] },
  ALREADY_MEMBER: { status: 409, required: ['user_id'] },
  LAST_OWNER: { status: 409, required: ['shop_id', 'user_id'] },
  INVITATION_NOT_FOR_STAFF: { status: 409 },
  ALREADY_STAFF: { status: 409, required: ['user_id'] },
  LAST_ADMIN: { status: 409, required: ['user_id'] },
  INVITATION_NOT_FOR_SHOP_MEMBER: { status: 409, required: ['shop_id'] },
  SHOP_HAS_OPEN_ORDERS: { status: 409, required: ['shop_id', 'open_orders'], optional: ['order_id'] },
  SHOP_HAS_OPEN_REFUNDS: { status: 409, required: ['shop_id', 'open_refunds'], optional: ['refund_id'] },
  SHOP_BALANCE_NOT_ZERO: { status: 409, required: ['shop_id', 'kind', 'amount'] },
  PAYOUT_WRONG_STATE: { status: 409, required: ['status', 'expected'] },
  REVIEW_ALREADY_REPLIED: { status: 409, required: ['review_id'] },
  REVIEW_EXISTS: { status: 409, optional: ['order_item_id'] },
  SKU_IN_USE: { status: 409 },
  REQUEST_TIMEOUT: { status: 408 },
  EVENTS_EXPIRED: { status: 410, required: ['oldest_after'] },
  PAYLOAD_TOO_LARGE: { status: 413, optional: ['limit_bytes'] },
  UNSUPPORTED_ENCODING: { status: 415 },
  MEDIA_TYPE_UNSUPPORTED: { status: 415, required: ['allowed'] },
  ADDRESS_BOOK_FULL: { status: 422, required: ['limit'] },
  CART_EMPTY: { status: 422 },
  MEDIA_UNREADABLE: { status: 422 },
  MEDIA_TOO_MANY_PIXELS: { status: 422, required: ['limit'] },
  CATEGORY_UNKNOWN: { status: 422, required: ['category_id'] },
  DISPUTE_AMOUNT_TOO_HIGH: { status: 422, required: ['refund_id', 'requested', 'available'] },
  COUPON_ALREADY_USED: { status: 422, required: ['shop_id', 'coupon_id'] },
  COUPON_BELOW_THRESHOLD: { status: 422, required: ['shop_id', 'coupon_id', 'min_order_amount', 'order_amount'] },
  COUPON_NOT_ALLOWED: { status: 422, required: ['shop_id', 'coupon_id', 'pricing'] },
  COUPON_NOT_FOR_THIS_SHOP: { status: 422, required: ['shop_id', 'coupon_id'] },
  COUPON_NOT_FOUND: { status: 422, required: ['shop_id', 'coupon_id'] },
  COUPON_NOT_IN_WINDOW: { status: 422, required: ['shop_id', 'coupon_id', 'valid_from', 'valid_until'] },
  COUPON_OUT_OF_STOCK: { status: 422, required: ['template_id'] },
  COUPON_SHOP_NOT_IN_CART: { status: 422, required: ['shop_id', 'coupon_id'] },
  COUPON_TEMPLATE_DISABLED: { status: 422, required: ['template_id'] },
  COUPON_TEMPLATE_ENDED: { status: 422, required: ['template_id'] },
  FLASH_SALE_PRICE_NOT_LOWER: { status: 422, required: ['sku_id', 'activity_price', 'standard_price'] },
  FLASH_SALE_RESERVE_BELOW_SOLD: { status: 422, required: ['sku_id', 'sold', 'reserved_stock'] },
  GROUP_BUY_FLASH_SALE_CONFLICT: { status: 422, required: ['sku_id'] },
  GROUP_BUY_NOT_ACTIVE: { status: 422, required: ['activity_id', 'starts_at', 'ends_at'] },
  GROUP_BUY_NO_COUPONS: { status: 422 },
  GROUP_BUY_SINGLE_ITEM: { status: 422, required: ['problem', 'activity_id'], optional: ['quantity', 'sku_id', 'activity_sku_id'] },
  GROUP_FULL: { status: 422, required: ['group_id', 'capacity'] },
  GROUP_NOT_JOINABLE: { status: 422, required: ['group_id', 'state'] },
  IDEMPOTENCY_KEY_REUSED: { status: 422 },
  INSUFFICIENT_FUNDS: { status: 422, required: ['required', 'kind'] },
  INSUFFICIENT_POINTS: { status: 422, required: ['required'] },
  INSUFFICIENT_STOCK: { status: 422, optional: ['sku_id', 'points_product_id', 'requested', 'available', 'stock_delta'] },
  INVOICE_NOT_AVAILABLE: { status: 422, required: ['status'] },
  ORDER_ITEM_NOT_IN_ORDER: { status: 422, required: ['order_item_id'] },
  PAYMENT_METHOD_UNAVAILABLE: { status: 422, required: ['method'] },
  PRODUCT_UNAVAILABLE: { status: 422, required: ['sku_id'] },
  SHOP_NOT_ACTIVE: { status: 422, required: ['shop_id'], optional: ['status', 'sku_id'] },
  REFUND_EXCEEDS_QUANTITY: { status: 422, required: ['order_item_id', 'requested', 'available'] },
  SHIPMENT_EXCEEDS_ORDER: { status: 422, required: ['order_item_id', 'remaining'] },
  SHIPPING_COMPANY_UNKNOWN: { status: 422, required: ['company_code'] },
  WEBHOOK_URL_REFUSED: { status: 422 },
  INVITATION_NOT_YOURS: { status: 422 },
  RATE_LIMITED: { status: 429, required: ['retry_after_seconds'] },
  HEADERS_TOO_LARGE: { status: 431, required: ['limit_bytes'] },
  TOO_MANY_SUBSCRIPTIONS: { status: 429, required: ['limit'] },
  TOO_MANY_CONNECTIONS: { status: 429 },
  INTERNAL: { status: 500 },
  PAYMENT_PROVIDER_UNAVAILABLE: { status: 502, required: ['payment_id', 'method'] },
  SERVICE_BUSY: { status: 503, required: ['retry_after_seconds'] },
  SERVICE_UNAVAILABLE: { status: 503, required: ['retry_after_seconds'] },
  DATABASE_POOL_STUCK: { status: 503 },
  SUBSCRIBER_TOO_SLOW: { status: 503 },
} as const satisfies Record<string, ErrorCodeDeclaration>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Each code's HTTP status. */
export const ERROR_STATUS = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status])) as {
  readonly [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'];
};

type Declared<C extends ErrorCode> = (typeof ERROR_CODES)[C];

/** The keys every answer of code `C` carries (never for a union of codes). */
export type RequiredDetailKey<C extends ErrorCode> = Declared<C> extends { required: readonly (infer K extends ErrorDetailKey)[] } ? K : never;

/** The keys some answers of code `C` carry (never for a union of codes). */
export type OptionalDetailKey<C extends ErrorCode> = Declared<C> extends { optional: readonly (infer K extends ErrorDetailKey)[] } ? K : never;

/** The codes that may answer without details (no required key). */
export type CodeWithoutRequiredDetails = { [C in ErrorCode]: [RequiredDetailKey<C>] extends [never] ? C : never }[ErrorCode];

/**
 * Answered by any operation: unsafe text anywhere in the request (path, query), a request the
 * framework could not read, the server's own failures. (A public route ignores a bad token.)
 */
export const SHARED_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'BAD_REQUEST', 'INTERNAL', 'SERVICE_UNAVAILABLE'];

/** Answered by any operation that reads a body (the body parser's refusals). */
export const BODY_ERRORS: ErrorCode[] = ['MALFORMED_JSON', 'JSON_TOO_DEEP', 'MALFORMED_ENCODING', 'REQUEST_ABORTED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_ENCODING'];

/**
 * The codes a use case refuses with, declared next to it (`export const payOrderRefusals =
 * refusals(...)` above `payOrder`), lists of helpers spread in: the REST operation's description
 * reads them, and test/refusals.test.ts checks each against the codes its code can reach. Access
 * codes (401, 403) and VALIDATION_FAILED are left out: every door documents those itself.
 */
export function refusals(...codes: (ErrorCode | readonly ErrorCode[])[]): readonly ErrorCode[] {
  return [...new Set(codes.flat())].sort();
}

/**
 * Answered by any operation that writes: a lost race on a unique key, a row another session keeps
 * locked longer than DB_LOCK_TIMEOUT_MS.
 */
export const WRITE_ERRORS: ErrorCode[] = ['CONFLICT', 'RESOURCE_LOCKED'];
