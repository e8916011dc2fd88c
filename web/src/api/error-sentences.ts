import type { UserErrorCode } from '../gql/graphql';

/** Codes a request can meet outside a mutation's user errors: top-level GraphQL errors. */
type TopLevelCode =
  | 'BAD_REQUEST' | 'BAD_USER_INPUT' | 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' | 'DESTINATION_INVALID' | 'JSON_TOO_DEEP' | 'MALFORMED_ENCODING'
  | 'MALFORMED_JSON' | 'REQUEST_ABORTED' | 'SORT_UNSUPPORTED' | 'TOKEN_EXPIRED' | 'TOKEN_INVALID' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED' | 'RESOURCE_LOCKED' | 'REQUEST_TIMEOUT' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_ENCODING' | 'RATE_LIMITED' | 'HEADERS_TOO_LARGE'
  | 'TOO_MANY_SUBSCRIPTIONS' | 'TOO_MANY_CONNECTIONS' | 'INTERNAL' | 'SERVICE_BUSY' | 'SERVICE_UNAVAILABLE' | 'DATABASE_POOL_STUCK' | 'SUBSCRIBER_TOO_SLOW'
  | 'EVENTS_EXPIRED';

/**
 * Every error code the storefront can meet, as a sentence a shopper understands (no raw code on the
 * screen). Typed against the schema's `UserErrorCode`, so a new code fails `npm run typecheck`, and
 * test/web-error-sentences.test.ts checks every code of the server's one list has a sentence.
 */
export const ERROR_SENTENCES: Record<UserErrorCode | TopLevelCode, string> = {
  ADDRESS_BOOK_FULL: 'Your address book is full (20 addresses). Delete one to save another.',
  BAD_REQUEST: 'That request could not be understood. Reload the page and try again.',
  BAD_USER_INPUT: 'Some of what was sent is not valid. Check the form and try again.',
  CART_CHANGED: 'Your cart changed while you were checking out. Look it over and place the order again.',
  CART_EMPTY: 'Your cart is empty: add something before checking out.',
  CONFLICT: 'Someone else changed this at the same moment. Try again.',
  COUPON_ALREADY_CLAIMED: 'You have already claimed this coupon: it is in your coupons.',
  COUPON_ALREADY_USED: 'This coupon has already been used.',
  COUPON_BELOW_THRESHOLD: 'The items from this shop do not reach the minimum amount of the coupon yet.',
  COUPON_NOT_ALLOWED: 'Coupons cannot be used on this order.',
  COUPON_NOT_FOR_THIS_SHOP: 'This coupon belongs to another shop.',
  COUPON_NOT_FOUND: 'That coupon is not among your coupons.',
  COUPON_NOT_IN_WINDOW: 'This coupon cannot be used today: look at its dates.',
  COUPON_OUT_OF_STOCK: 'All of these coupons have been claimed.',
  COUPON_SHOP_NOT_IN_CART: 'Nothing from this coupon\'s shop is in your cart.',
  COUPON_TEMPLATE_DISABLED: 'This coupon is no longer offered.',
  COUPON_TEMPLATE_ENDED: 'This coupon offer has ended.',
  DATABASE_POOL_STUCK: 'The shop is very busy right now. Try again in a moment.',
  DESTINATION_INVALID: 'That link does not lead anywhere in the mall.',
  EMAIL_TAKEN: 'An account with this email already exists. Sign in instead.',
  EVENTS_EXPIRED: 'Some live updates are too old to replay. Reload the page to see the latest.',
  FLASH_SALE_HAS_ORDERS: 'This flash sale already has orders and cannot be changed.',
  FLASH_SALE_LIMIT_CHANGED: 'You have reached the flash sale limit for this item. Look at your cart and try again.',
  FLASH_SALE_OVERLAP: 'Another flash sale runs at the same time for this item.',
  FLASH_SALE_PRICE_NOT_LOWER: 'A flash sale price must be lower than the normal price.',
  FLASH_SALE_RESERVE_BELOW_SOLD: 'The flash sale stock cannot be set below what has been sold.',
  FLASH_SALE_STOCK_CHANGED: 'The flash sale stock ran out while you were checking out. Look at your cart and try again.',
  FORBIDDEN: 'Your account cannot do this.',
  FREIGHT_TEMPLATE_IN_USE: 'This freight template is still used by products.',
  GRAPHQL_PARSE_FAILED: 'The page sent a request the shop could not read. Reload the page.',
  GRAPHQL_VALIDATION_FAILED: 'The page is out of date. Reload it and try again.',
  GROUP_ALREADY_JOINED: 'You are already in this group.',
  GROUP_BUY_FLASH_SALE_CONFLICT: 'This item is in a flash sale and cannot be bought as a group right now.',
  GROUP_BUY_HAS_GROUPS: 'This group buy already has groups and cannot be changed.',
  GROUP_BUY_NOT_ACTIVE: 'This group buy is not running right now.',
  GROUP_BUY_NO_COUPONS: 'Coupons cannot be used on a group buy.',
  GROUP_BUY_SINGLE_ITEM: 'A group buy takes one item at a time.',
  GROUP_FULL: 'This group is full. Open a new group or join another one.',
  GROUP_NOT_JOINABLE: 'This group can no longer be joined.',
  HEADERS_TOO_LARGE: 'Your browser sent too much data. Clear this site\'s cookies and try again.',
  IDEMPOTENCY_KEY_REUSED: 'This was already sent with other details. Reload the page and try again.',
  INSUFFICIENT_FUNDS: 'Your balance is not enough to pay. Top up your balance, or pay fewer orders.',
  INSUFFICIENT_POINTS: 'You do not have enough points for this.',
  INSUFFICIENT_STOCK: 'There is not enough stock for an item in your cart. Lower its quantity and try again.',
  INTERNAL: 'Something went wrong on our side. Try again in a moment.',
  INVALID_CREDENTIALS: 'That email and password do not match an account.',
  INVOICE_ALREADY_ISSUED: 'The invoice for this order has already been issued.',
  INVOICE_NOT_AVAILABLE: 'An invoice is available once the order is paid.',
  JSON_TOO_DEEP: 'That request was too complex. Reload the page and try again.',
  MALFORMED_ENCODING: 'That request could not be read. Reload the page and try again.',
  MALFORMED_JSON: 'That request could not be read. Reload the page and try again.',
  METHOD_NOT_ALLOWED: 'That action is not possible here.',
  NOT_FOUND: 'We could not find that. It may have been removed, or the link is wrong.',
  ORDER_NOT_CANCELLABLE: 'This order can no longer be cancelled.',
  ORDER_NOT_PAYABLE: 'This order can no longer be paid.',
  ORDER_NOT_SHIPPED: 'This can be done once the order has shipped.',
  ORDER_ITEM_NOT_IN_ORDER: 'That item is not part of this order.',
  ORDER_NOT_DELIVERED: 'This can be done once the order has been delivered.',
  ORDER_NOT_REFUNDABLE: 'This order cannot be refunded now.',
  ORDER_NOT_RETURNABLE: 'This order cannot be returned now.',
  ORDER_NOT_SHIPPABLE: 'This order cannot be shipped now.',
  ORDER_STATE_CONFLICT: 'This order has moved on (paid, cancelled or shipped) in the meantime. Reload it to see where it is.',
  PAYLOAD_TOO_LARGE: 'That was too much to send at once.',
  PAYOUT_WRONG_STATE: 'This payout has already been settled: a failed payout stays failed. Reload it to see its state.',
  POINTS_PRICE_CHANGED: 'The points price changed. Look at the new price and try again.',
  PRODUCT_STATE_CONFLICT: 'This product changed in the meantime. Reload and try again.',
  PRODUCT_UNAVAILABLE: 'This product is no longer on sale.',
  RATE_LIMITED: 'Too many attempts. Wait a minute and try again.',
  REDEMPTION_NOT_PENDING: 'This redemption has already been handled.',
  REFUND_EXCEEDS_QUANTITY: 'That is more than you can still refund for this item.',
  REFUND_WRONG_STATE: 'This refund has moved on in the meantime. Reload it to see where it is.',
  REQUEST_ABORTED: 'The request was interrupted. Try again.',
  REQUEST_TIMEOUT: 'The shop took too long to answer. Try again.',
  RESOURCE_LOCKED: 'Someone else is changing this right now. Try again in a moment.',
  REVIEW_ALREADY_REPLIED: 'This review already has a reply.',
  REVIEW_EXISTS: 'You have already reviewed this item: each item takes one review.',
  ROUTE_NOT_FOUND: 'That page does not exist.',
  SERVICE_BUSY: 'The shop is very busy right now. Try again in a moment.',
  SERVICE_UNAVAILABLE: 'The shop is not available right now. Try again in a moment.',
  SHIPMENT_EXCEEDS_ORDER: 'That is more than the order still has to ship.',
  SHIPPING_COMPANY_UNKNOWN: 'That shipping company is not known.',
  SKU_IN_USE: 'This option has orders and cannot be removed.',
  SORT_UNSUPPORTED: 'That sort order is not available here.',
  SUBSCRIBER_TOO_SLOW: 'Live updates fell behind. Reload the page.',
  TOKEN_EXPIRED: 'Your session has expired. Sign in again.',
  TOKEN_INVALID: 'Your session is no longer valid. Sign in again.',
  TOO_MANY_CONNECTIONS: 'Too many open pages are following live updates. Close a few and reload.',
  TOO_MANY_SUBSCRIPTIONS: 'Too many live updates are open. Close a few pages and reload.',
  UNAUTHENTICATED: 'Sign in to continue.',
  UNSUPPORTED_ENCODING: 'That request could not be read. Reload the page and try again.',
  VALIDATION_FAILED: 'Some fields need another look.',
  WEBHOOK_URL_REFUSED: 'That address cannot receive webhooks: use a public https address.',
};

/** The sentence of a code, or undefined for a code the storefront has never heard of. */
export function sentenceOf(code: string | undefined): string | undefined {
  return code && Object.hasOwn(ERROR_SENTENCES, code) ? ERROR_SENTENCES[code as keyof typeof ERROR_SENTENCES] : undefined;
}
