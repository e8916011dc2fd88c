import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type InferResult, type SqlBool } from 'kysely';
import { preparedQuery } from '../../db/prepared-queries.js';
import type { Database } from '../../db/typed-sql.js';

/**
 * The freight terms of products for one region (the region's override, else the template's
 * defaults): products whose id `productIds` admits. Checkout reads them inside its cart statement,
 * as JSON; a group-buying checkout reads them alone (`freightTermsOfProducts`).
 */
export function freightTermsWhere(productIds: (eb: ExpressionBuilder<Database & { p: Database['Product'] }, 'p'>) => Expression<SqlBool>, region: Expression<string>) {
  const eb = expressionBuilder<Database, never>();
  const region_ = (override: 'r.firstUnitFee' | 'r.additionalUnitFee' | 'r.freeThreshold', fallback: 't.firstUnitFee' | 't.additionalUnitFee' | 't.freeThreshold') =>
    (e: ExpressionBuilder<Database & { t: Database['FreightTemplate']; r: Database['FreightTemplateRegion'] }, 't' | 'r'>) =>
      e.case().when('r.template', 'is', null).then(e.ref(fallback)).else(e.ref(override)).end();
  return eb
    .selectFrom('Product as p')
    .innerJoin('FreightTemplate as t', 't.id', 'p.freightTemplate')
    .leftJoin('FreightTemplateRegion as r', (join) => join.onRef('r.template', '=', 't.id').on('r.region', '=', region))
    .select((e) => [
      'p.id as productId',
      't.id as templateId',
      region_('r.firstUnitFee', 't.firstUnitFee')(e).$notNull().as('firstUnitFee'),
      region_('r.additionalUnitFee', 't.additionalUnitFee')(e).$notNull().as('additionalUnitFee'),
      region_('r.freeThreshold', 't.freeThreshold')(e).as('freeThreshold'),
    ])
    .where(productIds);
}

/** A product's freight terms for a region. */
export type FreightTermsRow = InferResult<ReturnType<typeof freightTermsWhere>>[number];

/** A group-buying checkout's freight terms: its one product's, for a region. */
export const freightTermsOfProducts = preparedQuery({
  name: 'freight_terms_of_products',
  examples: [{}],
  build: (db, _shape: object, v: { productIds: number[]; region: string }) =>
    db.selectFrom(freightTermsWhere((eb) => eb('p.id', '=', eb.fn.any(eb.val(v.productIds))), sql.val(v.region)).as('f')).selectAll('f'),
});

