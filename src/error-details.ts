/**
 * Every key an error's `details` may carry, with the kind of its value: each code declares which of
 * these it carries (src/error-codes.ts), so both doors can describe details as a type. REST answers
 * them as written here (snake_case); GraphQL camelCases the names (`UserErrorDetails`) and spells
 * closed-set values (`enum`, `enum list`) as its enums do (`status: "CANCELLED"`).
 */
export const ERROR_DETAIL_KINDS = {
  id: 'int',
  activity_id: 'int',
  application_id: 'int',
  dispute_id: 'int',
  category_id: 'int',
  activity_sku_id: 'int',
  batch_id: 'int',
  coupon_id: 'int',
  customer_id: 'int',
  flash_sale_id: 'int',
  flash_sale_item_id: 'int',
  group_id: 'int',
  order_id: 'int',
  order_item_id: 'int',
  open_orders: 'int',
  open_refunds: 'int',
  payment_id: 'int',
  payout_id: 'int',
  points_product_id: 'int',
  product_id: 'int',
  refund_id: 'int',
  review_id: 'int',
  shop_id: 'int',
  sku_id: 'int',
  template_id: 'int',
  user_id: 'int',
  invitation_id: 'int',
  activity_price: 'int',
  amount: 'int',
  available: 'int',
  capacity: 'int',
  limit: 'int',
  limit_bytes: 'int',
  max_depth: 'int',
  min_order_amount: 'int',
  order_amount: 'int',
  price: 'int',
  quantity: 'int',
  remaining: 'int',
  requested: 'int',
  required: 'int',
  reserved_stock: 'int',
  retry_after_seconds: 'int',
  sold: 'int',
  standard_price: 'int',
  stock_delta: 'int',
  company_code: 'string',
  /** A payment method (`wallet`, `sandbox`, `stripe`, `alipay`). */
  method: 'string',
  /** EVENTS_EXPIRED: the earliest `after` still answered exactly (events up to it were pruned). */
  oldest_after: 'string',
  parameter: 'string',
  slug: 'string',
  /** ORDER_STATE_CONFLICT: the order move refused (`pay`, `ship`, `closeRefunded`...). */
  transition: 'string',
  value: 'string',
  kind: 'enum',
  pricing: 'enum',
  problem: 'enum',
  state: 'enum',
  status: 'enum',
  expected: 'enum list',
  ends_at: 'date-time',
  starts_at: 'date-time',
  valid_from: 'date-time',
  valid_until: 'date-time',
  /** REST only: a 405's methods (text) or a listing parameter's values (list); no mutation answers it. */
  allowed: 'text or list',
  /** VALIDATION_FAILED, DESTINATION_INVALID: one entry per bad field (GraphQL: one user error each). */
  problems: 'problems',
} as const;

export type ErrorDetailKey = keyof typeof ERROR_DETAIL_KINDS;
export type ErrorDetailKind = (typeof ERROR_DETAIL_KINDS)[ErrorDetailKey];

/** A field of the input that is wrong, by dotted path in the services' camelCase (null: the input as a whole). */
export interface InputProblem {
  field: string | null;
  message: string;
}

interface DetailValues {
  int: number;
  string: string;
  enum: string;
  'enum list': readonly string[];
  'date-time': Date;
  'text or list': string | readonly string[];
  problems: InputProblem[];
}

/** The value of detail key `K`, by its kind. */
export type ErrorDetailValue<K extends ErrorDetailKey> = DetailValues[(typeof ERROR_DETAIL_KINDS)[K]];

/** Any details: every key optional. What a code carries is declared per code (src/error-codes.ts). */
export type ErrorDetails = { [K in ErrorDetailKey]?: ErrorDetailValue<K> };
