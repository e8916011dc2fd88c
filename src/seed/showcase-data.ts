/**
 * The demo's promotions, orders and after-sale data: one of each feature, so a newcomer sees it
 * working without building it by hand. Shops are named by slug (see SHOPS in demo-data.ts); times
 * are offsets from the moment of seeding, so a fresh start always shows a running flash sale.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Claimable coupon templates: one fixed amount, one percent with a cap. `validDays` from each claim, so they never lapse. */
export const COUPON_TEMPLATES = [
  {
    shop: 'tech-harbor',
    terms: { name: '¥20 off orders over ¥200', discountKind: 'fixed', amountOff: 2_000, minOrderAmount: 20_000, validDays: 30, claimStock: 500 },
  },
  {
    shop: 'style-avenue',
    terms: { name: '10% off, up to ¥50', discountKind: 'percent', percentOff: 10, maxDiscount: 5_000, minOrderAmount: 0, validDays: 14, claimStock: 200 },
  },
] as const;

/**
 * Tech Harbor's parcel rates, with dearer remote regions. Assigned to the shop's first few published
 * products; its other products ship free (no template).
 */
export const FREIGHT_TEMPLATE = {
  shop: 'tech-harbor',
  productsAssigned: 4,
  terms: {
    name: 'Standard parcel',
    firstUnitFee: 1_000,
    additionalUnitFee: 500,
    freeThreshold: 99_900,
    regions: [
      { region: 'CN-XZ', firstUnitFee: 3_000, additionalUnitFee: 1_500, freeThreshold: null },
      { region: 'CN-XJ', firstUnitFee: 2_500, additionalUnitFee: 1_200, freeThreshold: null },
    ],
  },
};

/** A flash sale running now (a week long, so a demo left running keeps it) and one starting tomorrow. */
export const FLASH_SALES = [
  { shop: 'fresh-pantry', name: 'Pantry flash deals', startsIn: -10 * MINUTE, lasts: 7 * DAY, skus: 3, percentOfPrice: 70, reservedStock: 15, perCustomerLimit: 2 },
  { shop: 'style-avenue', name: 'Tomorrow: style hour', startsIn: DAY, lasts: 2 * HOUR, skus: 2, percentOfPrice: 60, reservedStock: 10, perCustomerLimit: 1 },
];

/** A group-buying activity; alice opens a group and bob joins it, so it waits for its last member. */
export const GROUP_BUY = {
  shop: 'home-nest',
  percentOfPrice: 80,
  capacity: 3,
  lifetimeMinutes: 7 * 24 * 60,
  startsIn: -HOUR,
  lasts: 30 * DAY,
};

export const ALICE_ADDRESS = { recipient: 'Alice Chen', phone: '+86 138 0000 0001', region: 'CN-ZJ', address: '18 Wensan Road, Xihu District, Hangzhou' };
export const BOB_ADDRESS = { recipient: 'Bob Li', phone: '+86 139 0000 0002', region: 'CN-SH', address: '200 Century Avenue, Pudong, Shanghai' };

/** Alice's delivered orders: one product of each shop, shipped with `carrier`; a review each, the first one replied to. */
export const DELIVERED_PURCHASES = [
  {
    shop: 'tech-harbor',
    carrier: 'sf',
    trackingNumber: 'SF1400000001',
    review: { rating: 5, text: 'Arrived in two days and works perfectly. Great packaging too.' },
    reply: 'Thank you, Alice! Enjoy it, and tell us if you ever need help.',
  },
  {
    shop: 'style-avenue',
    carrier: 'zto',
    trackingNumber: 'ZTO7300000002',
    review: { rating: 4, text: 'Nice quality, runs slightly small.' },
    reply: null,
  },
];

/**
 * Bob's purchase from two shops paid through the sandbox gateway (development's stand-in for a card
 * or Alipay, so the demo needs no keys): a captured gateway payment with the gateway's notification
 * recorded, and one unit of the second shop's line refunded back through the gateway.
 */
export const GATEWAY_PURCHASE = {
  lines: [
    { shop: 'home-nest', quantity: 1 },
    { shop: 'outdoor-lab', quantity: 2 },
  ],
  refund: { shop: 'outdoor-lab', quantity: 1, reason: 'Ordered one too many' },
  /** The other shop's order: delivered this many days ago, past the after-sale window, so completed and its earnings available to pay out. */
  delivered: { trackingNumber: 'SF1400000003', daysAgo: 10 },
};

/** Bob's points-mall redemption, waiting for the platform to send it. */
export const REDEMPTION = { item: 'Canvas tote bag', quantity: 1 };
