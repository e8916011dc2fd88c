import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray } from '../../db/sql.js';
import type { Database } from '../../db/typed-sql.js';
import { queryRows } from '../../db/prepared-statements.js';
import { z } from '../../shared/validate.js';
import type { DraftOrder } from '../../shared/checkout-draft.js';

/** ISO 3166-2 style region codes (`CN`, `CN-BJ`, `CN-XZ`), upper-cased; templates match them exactly. */
export const regionCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, 'Use a region code such as CN-BJ');

/** Where a checkout ships; snapshotted on each order. Strict: no fee or other field is accepted. */
export const ShippingAddressInput = z
  .object({
    recipient: z.string().trim().min(1).max(60),
    phone: z.string().trim().regex(/^\+?[0-9][0-9 -]{4,28}$/, 'Use digits, spaces and dashes, with an optional leading +'),
    region: regionCode,
    address: z.string().trim().min(1).max(300),
  })
  .strict();

export interface FreightTerms {
  firstUnitFee: number;
  additionalUnitFee: number;
  /** Null: never free. */
  freeThreshold: number | null;
}

/**
 * The fee of the units of one order that share a template: the first unit, then each additional
 * one, or nothing when the order's amount after discount reaches the threshold.
 */
export function groupFee(terms: FreightTerms, units: number, orderAmount: number): number {
  if (units <= 0) return 0;
  if (terms.freeThreshold !== null && orderAmount >= terms.freeThreshold) return 0;
  return terms.firstUnitFee + (units - 1) * terms.additionalUnitFee;
}

/**
 * A product's freight terms for one region (the region's override, else the template's defaults),
 * under the names `freightTermsSql` gives its columns: checkout reads these rows inside its cart
 * statement, as JSON.
 */
export interface FreightTermsRow {
  product_id: Database['Product']['id'];
  template_id: Database['FreightTemplate']['id'];
  first_unit_fee: Database['FreightTemplate']['firstUnitFee'];
  additional_unit_fee: Database['FreightTemplate']['additionalUnitFee'];
  free_threshold: Database['FreightTemplate']['freeThreshold'];
}

/**
 * The freight terms of the products whose id satisfies `productIds` (SQL on `p.id`), for the region
 * `region` (SQL; by default one bound `?`). Checkout reads them in the same statement as the cart
 * (`checkout.service.ts`).
 */
export const freightTermsSql = (productIds: string, region = '?') => `
  select p.id as product_id, t.id as template_id,
         case when r.template_id is null then t.first_unit_fee else r.first_unit_fee end as first_unit_fee,
         case when r.template_id is null then t.additional_unit_fee else r.additional_unit_fee end as additional_unit_fee,
         case when r.template_id is null then t.free_threshold else r.free_threshold end as free_threshold
    from product p
    join freight_template t on t.id = p.freight_template_id
    left join freight_template_region r on r.template_id = t.id and r.region = ${region}
   where ${productIds}`;

/** The freight terms of the drafts' products for a region, in one query. */
export async function freightTermsOf(em: EntityManager, drafts: DraftOrder[], region: string): Promise<FreightTermsRow[]> {
  const productIds = [...new Set(drafts.flatMap((d) => d.items.map((i) => i.productId)))];
  if (productIds.length === 0) return [];
  return queryRows<FreightTermsRow>(em, freightTermsSql('p.id = any(?::int[])'), [region, intArray(productIds)]);
}

/**
 * Each draft order's freight fee, keyed by shop, from its products' terms for the shipping region.
 * Run after every pricing step (the threshold looks at the amount after discount). Lines are grouped
 * by their product's template; a product without one ships free.
 */
export function freightFees(drafts: DraftOrder[], terms: FreightTermsRow[]): Map<number, number> {
  const byProduct = new Map(terms.map((r) => [r.product_id, r]));
  const fees = new Map<number, number>();
  for (const draft of drafts) {
    const amount = draft.items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0) - draft.discount;
    const groups = new Map<number, { terms: FreightTerms; units: number }>();
    for (const item of draft.items) {
      const t = byProduct.get(item.productId);
      if (!t) continue;
      const group = groups.get(t.template_id) ?? {
        terms: { firstUnitFee: t.first_unit_fee, additionalUnitFee: t.additional_unit_fee, freeThreshold: t.free_threshold },
        units: 0,
      };
      group.units += item.quantity;
      groups.set(t.template_id, group);
    }
    fees.set(draft.shopId, [...groups.values()].reduce((sum, g) => sum + groupFee(g.terms, g.units, amount), 0));
  }
  return fees;
}
