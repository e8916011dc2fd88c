import type { EntityManager } from '@mikro-orm/postgresql';
import { freightTermsOfProducts, type FreightTermsRow } from './freight.repository.js';
import { NOT_BLANK, z } from '../../shared/validate.js';
import type { DraftOrder } from '../../shared/checkout-draft.js';
import { regionCode } from './regions.js';

export { regionCode };

/** Where a checkout ships; snapshotted on each order. Strict: no fee or other field is accepted. */
export const ShippingAddressInput = z
  .object({
    recipient: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(60),
    phone: z.string().trim().regex(/^\+?[0-9][0-9 -]{3,27}[0-9]$/, 'Use digits, spaces and dashes, with an optional leading +, ending in a digit'),
    region: regionCode,
    address: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(300),
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

export type { FreightTermsRow };

/** The freight terms of the drafts' products for a region, in one query. */
export async function freightTermsOfDrafts(em: EntityManager, drafts: DraftOrder[], region: string): Promise<FreightTermsRow[]> {
  const productIds = [...new Set(drafts.flatMap((d) => d.items.map((i) => i.productId)))];
  if (productIds.length === 0) return [];
  return freightTermsOfProducts.run(em, {}, { productIds, region });
}

/**
 * Each draft order's freight fee, keyed by shop, from its products' terms for the shipping region.
 * Run after every pricing step (the threshold looks at the amount after discount). Lines are grouped
 * by their product's template; a product without one ships free.
 */
export function freightFees(drafts: DraftOrder[], terms: FreightTermsRow[]): Map<number, number> {
  const byProduct = new Map(terms.map((r) => [r.productId, r]));
  const fees = new Map<number, number>();
  for (const draft of drafts) {
    const amount = draft.items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0) - draft.discount;
    const groups = new Map<number, { terms: FreightTerms; units: number }>();
    for (const item of draft.items) {
      const t = byProduct.get(item.productId);
      if (!t) continue;
      const group = groups.get(t.templateId) ?? {
        terms: { firstUnitFee: t.firstUnitFee, additionalUnitFee: t.additionalUnitFee, freeThreshold: t.freeThreshold },
        units: 0,
      };
      group.units += item.quantity;
      groups.set(t.templateId, group);
    }
    fees.set(draft.shopId, [...groups.values()].reduce((sum, g) => sum + groupFee(g.terms, g.units, amount), 0));
  }
  return fees;
}
