import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { fixedStatement, preparedQuery } from '../../db/prepared-queries.js';
import { z } from '../../shared/validate.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { flashSaleOffersOf } from '../promotions/flash-sale-pricing.js';
import { freightTermsWhere } from '../shipping/freight.repository.js';

/**
 * The cart's hot statements (docs/performance.md: every cart change answers with the cart), built
 * with Kysely and prepared once (src/db/prepared-queries.ts).
 */

/** The customer's cart lines with their SKU's current price and stock, product and shop. */
export const cartLines = preparedQuery({
  name: 'cart_lines',
  examples: [{}],
  build: (db, _shape: object, v: { customerId: number }) =>
    db
      .selectFrom('CartItem as c')
      .innerJoin('Sku as s', 's.id', 'c.sku')
      .innerJoin('Product as p', 'p.id', 's.product')
      .innerJoin('Shop as sh', 'sh.id', 'p.shop')
      .select(['c.sku as skuId', 's.name as skuName', 's.price as price', 's.stock as stock', 'c.quantity as quantity'])
      .select(['p.id as productId', 'p.name as productName', 'p.imageUrl as imageUrl', 'p.status as status'])
      .select(['sh.id as shopId', 'sh.slug as shopSlug', 'sh.name as shopName'])
      .where('c.customer', '=', v.customerId)
      .orderBy('sh.id')
      .orderBy('c.addedAt')
      .orderBy('c.id'),
});

/**
 * Puts a line (a new quantity replaces the old), only for a SKU of a published product: one
 * statement, which returns nothing when the SKU is unknown or not on sale.
 */
export const putCartLine = preparedQuery({
  name: 'put_cart_line',
  examples: [{}],
  build: (db, _shape: object, v: { customerId: number; skuId: number; quantity: number }) =>
    db
      .insertInto('CartItem')
      .columns(['customer', 'sku', 'quantity', 'addedAt'])
      .expression((eb) =>
        eb
          .selectFrom('Sku as s')
          .innerJoin('Product as p', 'p.id', 's.product')
          .select((e) => [e.val(v.customerId).as('customer'), 's.id', e.val(v.quantity).as('quantity'), sql<Date>`now()`.as('addedAt')])
          .where('s.id', '=', v.skuId)
          .where('p.status', '=', sql.lit(ProductStatus.Published)),
      )
      .onConflict((oc) => oc.columns(['customer', 'sku']).doUpdateSet((eb) => ({ quantity: eb.ref('excluded.quantity') })))
      .returning('sku as skuId'),
});

/**
 * The carts of several customers, each for its shipping region, in one statement: per request (by
 * position: one customer may be asked for twice, for two regions) the lines at current prices, the
 * flash-sale offers for them and the freight terms of their products, each a JSON list.
 */
export const checkoutCarts = preparedQuery({
  name: 'checkout_carts',
  examples: [{}],
  build: (db, _shape: object, v: { customerIds: number[]; regions: string[] }) =>
    db
      .with('wanted', (qb) =>
        qb
          .selectFrom(
            sql<{ customerId: number; region: string; n: string }>`unnest(${v.customerIds}::int[], ${v.regions}::text[]) with ordinality`.as<'w'>(
              sql`w("customerId", region, n)`,
            ),
          )
          .select(['w.customerId', 'w.region', 'w.n']),
      )
      .with('lines', (qb) =>
        qb
          .selectFrom('CartItem as c')
          .innerJoin('Sku as s', 's.id', 'c.sku')
          .innerJoin('Product as p', 'p.id', 's.product')
          .select(['c.customer as customerId', 'c.sku as skuId', 's.name as skuName', 's.price as price', 'c.quantity as quantity'])
          .select(['p.id as productId', 'p.name as productName', 'p.shop as shopId', 'p.status as status'])
          .where((eb) => eb('c.customer', '=', eb.fn.any(eb.val(v.customerIds)))),
      )
      .selectFrom('wanted')
      .select((eb) => {
        const linesOf = () => eb.selectFrom('lines as l').whereRef('l.customerId', '=', 'wanted.customerId');
        return [
          'wanted.n',
          jsonArrayFrom(linesOf().selectAll('l').orderBy('l.shopId').orderBy('l.skuId')).as('lines'),
          jsonArrayFrom(flashSaleOffersOf(linesOf().select(['l.customerId', 'l.skuId', 'l.price']).as('c'))).as('flashSaleOffers'),
          jsonArrayFrom(
            freightTermsWhere((e) => e('p.id', 'in', linesOf().select('l.productId')), eb.ref('wanted.region')),
          ).as('freightTerms'),
        ];
      }),
});

/**
 * A guest cart merged into a customer's: per SKU of a published product the quantities add up, to the
 * stock at most, never below what the cart held, and at least one unit (a line out of stock stays
 * visible instead of vanishing); at most 999 as a line allows. The update reads the line as it is
 * when locked, so two merges at once both count. `before` is the line as the statement first saw it.
 */
export const MergedCartRow = z.object({ skuId: z.number().int(), quantity: z.number().int(), before: z.number().int() });

export const mergeCartLines = fixedStatement({
  name: 'merge_cart_lines',
  row: MergedCartRow,
  text: `
with guest as (
  select g.sku_id, g.quantity from unnest(?::int[], ?::int[]) as g(sku_id, quantity)
), target as (
  select g.sku_id, g.quantity, s.stock, coalesce(c.quantity, 0) as before
    from guest g
    join sku s on s.id = g.sku_id
    join product p on p.id = s.product_id and p.status = 'published'
    left join cart_item c on c.customer_id = ? and c.sku_id = g.sku_id
), merged as (
  insert into cart_item (customer_id, sku_id, quantity, added_at)
  select ?, t.sku_id, least(t.quantity, greatest(t.stock, 1), 999), now() from target t order by t.sku_id
  on conflict (customer_id, sku_id) do update
     set quantity = (select least(cart_item.quantity + t.quantity, greatest(t.stock, cart_item.quantity, 1), 999) from target t where t.sku_id = excluded.sku_id)
  returning sku_id, quantity
)
select m.sku_id as "skuId", m.quantity, t.before from merged m join target t on t.sku_id = m.sku_id order by m.sku_id`,
});
