import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../../db/prepared-statements.js';
import { intArray, textArray } from '../../db/sql.js';
import { flashSaleOffersSql, type FlashSaleOffer } from '../promotions/flash-sale-pricing.js';
import { freightTermsSql, type FreightTermsRow } from '../shipping/freight-fees.js';
import type { Database } from '../../db/typed-sql.js';
import type { CheckoutCart } from './order-writer.js';

export interface CartRequest {
  em: EntityManager;
  customerId: number;
  region: string;
}

/** A cart line inside the read's JSON (`json_agg` keeps column names and JSON types). */
interface CartLineRow {
  customer_id: Database['CartItem']['customer'];
  sku_id: Database['Sku']['id'];
  sku_name: Database['Sku']['name'];
  price: Database['Sku']['price'];
  quantity: Database['CartItem']['quantity'];
  product_id: Database['Product']['id'];
  product_name: Database['Product']['name'];
  shop_id: Database['Product']['shop'];
  status: Database['Product']['status'];
}

/**
 * The carts of several customers, each for its shipping region, in one statement (exported for
 * tests). One row per request, by position: a customer may be asked for twice, for two regions.
 */
export async function readCarts(requests: CartRequest[]): Promise<CheckoutCart[]> {
  const rows = await queryRows<{ n: string; lines: CartLineRow[]; flash_sale_offers: FlashSaleOffer[]; freight_terms: FreightTermsRow[] }>(
    requests[0].em,
    `with wanted as (select * from unnest(?::int[], ?::text[]) with ordinality as w(customer_id, region, n)),
          lines as (
            select c.customer_id, c.sku_id, s.name as sku_name, s.price, c.quantity, p.id as product_id, p.name as product_name,
                   p.shop_id, p.status
              from cart_item c join sku s on s.id = c.sku_id join product p on p.id = s.product_id
             where c.customer_id = any(?::int[])
          )
     select w.n,
            (select coalesce(json_agg(l order by l.shop_id, l.sku_id), '[]') from lines l where l.customer_id = w.customer_id) as lines,
            (select coalesce(json_agg(o), '[]')
               from (${flashSaleOffersSql('(select * from lines l where l.customer_id = w.customer_id)')}) o) as flash_sale_offers,
            (select coalesce(json_agg(f), '[]')
               from (${freightTermsSql('p.id in (select l.product_id from lines l where l.customer_id = w.customer_id)', 'w.region')}) f) as freight_terms
       from wanted w`,
    [intArray(requests.map((r) => r.customerId)), textArray(requests.map((r) => r.region)), intArray(requests.map((r) => r.customerId))],
  );
  const byPosition = new Map(rows.map((r) => [Number(r.n), r]));
  return requests.map((_, i) => {
    const row = byPosition.get(i + 1)!;
    return {
      lines: row.lines.map((r) => ({
        skuId: r.sku_id,
        skuName: r.sku_name,
        productId: r.product_id,
        productName: r.product_name,
        shopId: r.shop_id,
        unitPrice: r.price,
        quantity: r.quantity,
        status: r.status,
      })),
      flashSaleOffers: row.flash_sale_offers,
      freightTerms: row.freight_terms,
    };
  });
}
