/**
 * Every error code the service can answer, with its HTTP status: `AppError` takes only these. A REST
 * operation's description names its own codes (`errors`); the OpenAPI document adds the ones every
 * operation shares.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  DESTINATION_INVALID: 400,
  JSON_TOO_DEEP: 400,
  MALFORMED_ENCODING: 400,
  MALFORMED_JSON: 400,
  REQUEST_ABORTED: 400,
  SORT_UNSUPPORTED: 400,
  VALIDATION_FAILED: 400,
  INVALID_CREDENTIALS: 401,
  TOKEN_EXPIRED: 401,
  TOKEN_INVALID: 401,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_FOUND: 404,
  CONFLICT: 409,
  CART_CHANGED: 409,
  FLASH_SALE_LIMIT_CHANGED: 409,
  FLASH_SALE_STOCK_CHANGED: 409,
  COUPON_ALREADY_CLAIMED: 409,
  EMAIL_TAKEN: 409,
  FLASH_SALE_HAS_ORDERS: 409,
  FLASH_SALE_OVERLAP: 409,
  FREIGHT_TEMPLATE_IN_USE: 409,
  GROUP_ALREADY_JOINED: 409,
  GROUP_BUY_HAS_GROUPS: 409,
  INVOICE_ALREADY_ISSUED: 409,
  ORDER_NOT_DELIVERED: 409,
  ORDER_NOT_REFUNDABLE: 409,
  ORDER_NOT_RETURNABLE: 409,
  ORDER_NOT_SHIPPABLE: 409,
  ORDER_STATE_CONFLICT: 409,
  POINTS_PRICE_CHANGED: 409,
  PRODUCT_STATE_CONFLICT: 409,
  REDEMPTION_NOT_PENDING: 409,
  RESOURCE_LOCKED: 409,
  REFUND_WRONG_STATE: 409,
  PAYOUT_WRONG_STATE: 409,
  REVIEW_ALREADY_REPLIED: 409,
  REVIEW_EXISTS: 409,
  SKU_IN_USE: 409,
  REQUEST_TIMEOUT: 408,
  EVENTS_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_ENCODING: 415,
  ADDRESS_BOOK_FULL: 422,
  CART_EMPTY: 422,
  COUPON_ALREADY_USED: 422,
  COUPON_BELOW_THRESHOLD: 422,
  COUPON_NOT_ALLOWED: 422,
  COUPON_NOT_FOR_THIS_SHOP: 422,
  COUPON_NOT_FOUND: 422,
  COUPON_NOT_IN_WINDOW: 422,
  COUPON_OUT_OF_STOCK: 422,
  COUPON_SHOP_NOT_IN_CART: 422,
  COUPON_TEMPLATE_DISABLED: 422,
  COUPON_TEMPLATE_ENDED: 422,
  FLASH_SALE_PRICE_NOT_LOWER: 422,
  FLASH_SALE_RESERVE_BELOW_SOLD: 422,
  GROUP_BUY_FLASH_SALE_CONFLICT: 422,
  GROUP_BUY_NOT_ACTIVE: 422,
  GROUP_BUY_NO_COUPONS: 422,
  GROUP_BUY_SINGLE_ITEM: 422,
  GROUP_FULL: 422,
  GROUP_NOT_JOINABLE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  INSUFFICIENT_FUNDS: 422,
  INSUFFICIENT_POINTS: 422,
  INSUFFICIENT_STOCK: 422,
  INVOICE_NOT_AVAILABLE: 422,
  ORDER_ITEM_NOT_IN_ORDER: 422,
  PRODUCT_UNAVAILABLE: 422,
  REFUND_EXCEEDS_QUANTITY: 422,
  SHIPMENT_EXCEEDS_ORDER: 422,
  SHIPPING_COMPANY_UNKNOWN: 422,
  WEBHOOK_URL_REFUSED: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  TOO_MANY_SUBSCRIPTIONS: 429,
  TOO_MANY_CONNECTIONS: 429,
  INTERNAL: 500,
  SERVICE_BUSY: 503,
  SERVICE_UNAVAILABLE: 503,
  DATABASE_POOL_STUCK: 503,
  SUBSCRIBER_TOO_SLOW: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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
