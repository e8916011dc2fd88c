import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate } from '../shared/values.js';
import { conflict, notFound } from '../errors.js';
import { intArray } from '../db/sql.js';
import type { ServiceContext } from '../shared/context.js';
import { requireOperator } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { id, parseInput, z } from '../shared/validate.js';
import { idPage, pageFields, type Page } from '../shared/pagination.js';
import { regionCode, type FreightTerms } from './freight-fees.js';

export interface FreightRegionView extends FreightTerms {
  region: string;
}

export interface FreightTemplateView extends FreightTerms {
  id: number;
  shopId: number;
  name: string;
  regions: FreightRegionView[];
  createdAt: Date;
  updatedAt: Date;
}

/** Fees up to 10,000.00 per unit: enough for freight, small enough that totals cannot overflow. */
const fee = z.number().int().min(0).max(1_000_000);
const terms = {
  firstUnitFee: fee,
  additionalUnitFee: fee,
  /** Absent or null: never free. */
  freeThreshold: z.number().int().min(0).max(2_000_000_000).nullable().default(null),
};
const TemplateInput = z.strictObject({
  name: z.string().trim().min(1).max(80),
  ...terms,
  regions: z
    .array(z.strictObject({ region: regionCode, ...terms }))
    .max(100)
    .default([])
    .refine((list) => new Set(list.map((r) => r.region)).size === list.length, 'Each region may appear once'),
});
const TemplateRef = z.strictObject({ templateId: id });

/** Full views of templates (with their regions) in two queries, in the order of `ids`. */
async function templateViews(em: EntityManager, ids: number[]): Promise<FreightTemplateView[]> {
  if (ids.length === 0) return [];
  const [templates, regions] = await Promise.all([
    em.execute<any[]>('select * from freight_template where id = any(?::int[])', [intArray(ids)]),
    em.execute<any[]>('select * from freight_template_region where template_id = any(?::int[]) order by region', [intArray(ids)]),
  ]);
  const byId = new Map<number, FreightTemplateView>(
    templates.map((t) => [
      t.id,
      {
        id: t.id, shopId: t.shop_id, name: t.name, firstUnitFee: t.first_unit_fee, additionalUnitFee: t.additional_unit_fee,
        freeThreshold: t.free_threshold, regions: [], createdAt: toDate(t.created_at), updatedAt: toDate(t.updated_at),
      },
    ]),
  );
  for (const r of regions) {
    byId.get(r.template_id)!.regions.push({ region: r.region, firstUnitFee: r.first_unit_fee, additionalUnitFee: r.additional_unit_fee, freeThreshold: r.free_threshold });
  }
  return ids.map((i) => byId.get(i)).filter((t): t is FreightTemplateView => t !== undefined);
}

async function writeRegions(em: EntityManager, templateId: number, regions: FreightRegionView[]): Promise<void> {
  await em.execute('delete from freight_template_region where template_id = ?', [templateId]);
  if (regions.length === 0) return;
  await em.execute(
    `insert into freight_template_region (template_id, region, first_unit_fee, additional_unit_fee, free_threshold)
     select ?, r.region, r.first_unit_fee, r.additional_unit_fee, r.free_threshold
       from jsonb_to_recordset(?::jsonb) as r(region varchar, first_unit_fee int, additional_unit_fee int, free_threshold int)`,
    [templateId, JSON.stringify(regions.map((r) => ({ region: r.region, first_unit_fee: r.firstUnitFee, additional_unit_fee: r.additionalUnitFee, free_threshold: r.freeThreshold })))],
  );
}

/** The operator's templates, oldest first. */
export async function listFreightTemplates(ctx: ServiceContext, input: unknown): Promise<Page<FreightTemplateView>> {
  const operator = requireOperator(ctx);
  const { page, pageSize } = parseInput(z.object(pageFields), input ?? {});
  const { ids, total } = await idPage(ctx.em, { table: 'freight_template', where: 'shop_id = ?', params: [operator.shopId], order: 'asc' }, { page, pageSize });
  return { items: await templateViews(ctx.em, ids), page, pageSize, total };
}

export async function createFreightTemplate(ctx: ServiceContext, input: unknown): Promise<FreightTemplateView> {
  const operator = requireOperator(ctx);
  const data = parseInput(TemplateInput, input);
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.em.execute<{ id: number }[]>(
      `insert into freight_template (shop_id, name, first_unit_fee, additional_unit_fee, free_threshold, created_at, updated_at)
       values (?, ?, ?, ?, ?, now(), now()) returning id`,
      [operator.shopId, data.name, data.firstUnitFee, data.additionalUnitFee, data.freeThreshold],
    );
    await writeRegions(tx.em, row.id, data.regions);
    return (await templateViews(tx.em, [row.id]))[0];
  });
}

/** Replaces a template's terms and regions as a whole. Orders already placed keep their fee. */
export async function updateFreightTemplate(ctx: ServiceContext, input: unknown): Promise<FreightTemplateView> {
  const operator = requireOperator(ctx);
  const { templateId, ...data } = parseInput(TemplateInput.extend(TemplateRef.shape), input);
  return inTransaction(ctx, async (tx) => {
    const updated = await tx.em.execute<{ id: number }[]>(
      `update freight_template set name = ?, first_unit_fee = ?, additional_unit_fee = ?, free_threshold = ?, updated_at = now()
        where id = ? and shop_id = ? returning id`,
      [data.name, data.firstUnitFee, data.additionalUnitFee, data.freeThreshold, templateId, operator.shopId],
    );
    if (updated.length === 0) throw notFound('Freight template', { template_id: templateId });
    await writeRegions(tx.em, templateId, data.regions);
    return (await templateViews(tx.em, [templateId]))[0];
  });
}

function isForeignKeyViolation(error: unknown): boolean {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) if (e.code === '23503') return true;
  return false;
}

/** Deletes a template no product uses; one in use is 409 (the restrict foreign key decides, so no race). */
export async function deleteFreightTemplate(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireOperator(ctx);
  const { templateId } = parseInput(TemplateRef, input);
  await inTransaction(ctx, async (tx) => {
    let deleted: unknown[];
    try {
      deleted = await tx.em.execute('delete from freight_template where id = ? and shop_id = ? returning id', [templateId, operator.shopId]);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      throw conflict('FREIGHT_TEMPLATE_IN_USE', 'Products still use this freight template; assign them another first', { template_id: templateId });
    }
    if (deleted.length === 0) throw notFound('Freight template', { template_id: templateId });
  });
}

const AssignInput = z.strictObject({ productId: id, freightTemplateId: id.nullable() });

/**
 * Assigns one of the shop's own templates to one of its products (null: the product ships free).
 * Another shop's product or template is 404.
 */
export async function assignFreightTemplate(ctx: ServiceContext, input: unknown): Promise<{ productId: number; freightTemplateId: number | null }> {
  const operator = requireOperator(ctx);
  const { productId, freightTemplateId } = parseInput(AssignInput, input);
  return inTransaction(ctx, async (tx) => {
    if (freightTemplateId !== null) {
      // `for key share` keeps the template from being deleted until this commits.
      const [template] = await tx.em.execute('select id from freight_template where id = ? and shop_id = ? for key share', [freightTemplateId, operator.shopId]);
      if (!template) throw notFound('Freight template', { template_id: freightTemplateId });
    }
    const updated = await tx.em.execute('update product set freight_template_id = ?, updated_at = now() where id = ? and shop_id = ? returning id', [freightTemplateId, productId, operator.shopId]);
    if (updated.length === 0) throw notFound('Product', { product_id: productId });
    return { productId, freightTemplateId };
  });
}

