import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/typed-sql.js';

/**
 * What the audit log calls a changed row (issue 44, names instead of ids): its own name (a product's,
 * a shop's, a coupon template's, a user's display name, an invitation's email), or for a row without
 * one the name of what it belongs to (a SKU's product, a refund's order, a payout's shop). Read in the
 * log's one statement, one branch per type; null when the row is gone or its type has no name here.
 * A type missing from this table still reads by type and id.
 */

// The changed row's key, for the types keyed by one integer. Inside `case` it is cast only in its own
// type's branch: a composite key (`3:CN-XZ`) of another type is never read as a number.
const key = sql<number>`a.target_id::int`;
// A composite key's parts (`template:region`).
const keyPart = (n: number) => sql<string>`split_part(a.target_id, ':', ${sql.lit(n)})`;

/** An order as the consoles call it, with its customer: "Order #12, Alice Li". */
const orderName = sql<string>`'Order #' || o.id || ', ' || c.display_name`.as('name');

// Each a one-column subquery: its value is the name.
function namesByType(db: Kysely<Database>): Record<string, Expression<unknown>> {
  const order = () => db.selectFrom('Order as o').innerJoin('User as c', 'c.id', 'o.customer');
  return {
    Product: db.selectFrom('Product as t').select('t.name').where('t.id', '=', key),
    Sku: db.selectFrom('Sku as t').innerJoin('Product as p', 'p.id', 't.product').select(sql<string>`p.name || ' · ' || t.name`.as('name')).where('t.id', '=', key),
    Shop: db.selectFrom('Shop as t').select('t.name').where('t.id', '=', key),
    ShopProfile: db.selectFrom('ShopProfile as t').innerJoin('Shop as p', 'p.id', 't.shop').select('p.name').where('t.shop', '=', key),
    ShopApplication: db.selectFrom('ShopApplication as t').select('t.shopName').where('t.id', '=', key),
    ShopMembership: db.selectFrom('ShopMembership as t').innerJoin('User as p', 'p.id', 't.user').select('p.displayName').where('t.id', '=', key),
    MemberInvitation: db.selectFrom('MemberInvitation as t').select('t.email').where('t.id', '=', key),
    StaffInvitation: db.selectFrom('StaffInvitation as t').select('t.email').where('t.id', '=', key),
    User: db.selectFrom('User as t').select('t.displayName').where('t.id', '=', key),
    Brand: db.selectFrom('Brand as t').select('t.name').where('t.id', '=', key),
    Category: db.selectFrom('Category as t').select('t.name').where('t.id', '=', key),
    CouponTemplate: db.selectFrom('CouponTemplate as t').select('t.name').where('t.id', '=', key),
    FlashSale: db.selectFrom('FlashSale as t').select('t.name').where('t.id', '=', key),
    FlashSaleItem: db
      .selectFrom('FlashSaleItem as t')
      .innerJoin('FlashSale as f', 'f.id', 't.flashSale')
      .innerJoin('Sku as k', 'k.id', 't.sku')
      .innerJoin('Product as p', 'p.id', 'k.product')
      .select(sql<string>`f.name || ': ' || p.name`.as('name'))
      .where('t.id', '=', key),
    GroupBuyActivity: db.selectFrom('GroupBuyActivity as t').innerJoin('Product as p', 'p.id', 't.product').select('p.name').where('t.id', '=', key),
    FreightTemplate: db.selectFrom('FreightTemplate as t').select('t.name').where('t.id', '=', key),
    FreightTemplateRegion: db
      .selectFrom('FreightTemplateRegion as t')
      .innerJoin('FreightTemplate as f', 'f.id', 't.template')
      .select(sql<string>`f.name || ' · ' || t.region`.as('name'))
      .where('t.template', '=', sql<number>`${keyPart(1)}::int`)
      .where('t.region', '=', keyPart(2)),
    PointsProduct: db.selectFrom('PointsProduct as t').select('t.name').where('t.id', '=', key),
    // The product's name as it was redeemed (kept on the redemption).
    Redemption: db.selectFrom('Redemption as t').select('t.productName').where('t.id', '=', key),
    HomeContentItem: db.selectFrom('HomeContentItem as t').select('t.title').where('t.id', '=', key),
    Order: order().select(orderName).where('o.id', '=', key),
    Refund: order().innerJoin('Refund as t', 't.order', 'o.id').select(orderName).where('t.id', '=', key),
    Dispute: order().innerJoin('Dispute as t', 't.order', 'o.id').select(orderName).where('t.id', '=', key),
    Shipment: order().innerJoin('Shipment as t', 't.order', 'o.id').select(orderName).where('t.id', '=', key),
    Invoice: db.selectFrom('Invoice as t').select('t.invoiceNo').where('t.id', '=', key),
    Review: db.selectFrom('Review as t').innerJoin('Product as p', 'p.id', 't.product').select('p.name').where('t.id', '=', key),
    Payout: db.selectFrom('Payout as t').innerJoin('Shop as p', 'p.id', 't.shop').select('p.name').where('t.id', '=', key),
    // Keyed by its code, not a number.
    ShippingCompany: db.selectFrom('ShippingCompany as t').select('t.name').where('t.code', '=', sql<string>`a.target_id`),
    WebhookEndpoint: db.selectFrom('WebhookEndpoint as t').select('t.url').where('t.id', '=', key),
    MediaAsset: db.selectFrom('MediaAsset as t').select('t.filename').where('t.id', '=', key),
  };
}

/** The changed row's name, one scalar read by its key in its type's branch (the log's alias is `a`). */
export function auditTargetName(db: Kysely<Database>): RawBuilder<string | null> {
  const branches = Object.entries(namesByType(db)).map(([type, name]) => sql`when ${sql.lit(type)} then ${name}`);
  return sql<string | null>`case a.target_type ${sql.join(branches, sql` `)} end`;
}
