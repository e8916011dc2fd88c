import { ForeignKeyConstraintViolationException, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { conflict, notFound } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { FreightTemplate, FreightTemplateRegion } from '../../entities/freight-template.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { id, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { PageQuery, pageOf, pageWindow, type Page } from '../../shared/pagination.js';
import { regionCode, type FreightTerms } from './freight-fees.js';
import type { RegionCode } from './regions.js';
import type { FreightAssignmentView, FreightRegionView, FreightTemplateView } from './freight-views.js';
import { refusals } from '../../error-codes.js';
import { auditedWrite } from '../../shared/audit.js';
import { auditedRows } from '../../shared/audit.js';

/** Fees up to 10,000.00 per unit: enough for freight, small enough that totals cannot overflow. */
const fee = z.number().int().min(0).max(1_000_000);
const terms = {
  firstUnitFee: fee,
  additionalUnitFee: fee,
  /** Absent or null: never free. */
  freeThreshold: z.number().int().min(0).max(2_000_000_000).nullable().default(null),
};
export const TemplateInput = z.strictObject({
  name: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(80),
  ...terms,
  regions: z
    .array(z.strictObject({ region: regionCode, ...terms }))
    .max(100)
    .default([])
    .refine((list) => new Set(list.map((r) => r.region)).size === list.length, 'Each region may appear once'),
});
const TemplateRef = z.strictObject({ templateId: id });

/** The three terms of a template, a region or an input (entities type the nullable threshold as optional). */
const termsOf = (t: Omit<FreightTerms, 'freeThreshold'> & { freeThreshold?: number | null }): FreightTerms => ({
  firstUnitFee: t.firstUnitFee,
  additionalUnitFee: t.additionalUnitFee,
  freeThreshold: t.freeThreshold ?? null,
});

function toView(template: FreightTemplate, regions: FreightTemplateRegion[]): FreightTemplateView {
  return {
    id: template.id,
    shopId: template.shop.id,
    name: template.name,
    ...termsOf(template),
    regions: regions
      // The column is written only from `regionCode` (TemplateInput).
      .map((r): FreightRegionView => ({ region: r.region as RegionCode, ...termsOf(r) }))
      .sort((a, b) => (a.region < b.region ? -1 : 1)),
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
  };
}

/** The template's regions as given (any it had before are gone by then). */
function createRegions(em: EntityManager, template: FreightTemplate, regions: FreightRegionView[]): FreightTemplateRegion[] {
  return regions.map((r) => em.create(FreightTemplateRegion, { template, region: r.region, ...termsOf(r) }));
}

/** The operator's templates, oldest first. */
export async function listFreightTemplates(ctx: ServiceContext, input: unknown): Promise<Page<FreightTemplateView>> {
  const operator = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const paging = parseInput(PageQuery, input ?? {});
  const [templates, total] = await ctx.em.findAndCount(
    FreightTemplate,
    { shop: operator.shopId },
    { populate: ['regions'], orderBy: { id: 'asc' }, ...pageWindow(paging) },
  );
  return pageOf(templates.map((t) => toView(t, t.regions.getItems())), paging, total);
}

export async function createFreightTemplate(ctx: ServiceContext, input: unknown): Promise<FreightTemplateView> {
  const operator = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const data = parseInput(TemplateInput, input);
  return inTransaction(ctx, async (tx) => {
    const template = tx.em.create(FreightTemplate, { shop: operator.shopId, name: data.name, ...termsOf(data) });
    const regions = createRegions(tx.em, template, data.regions);
    await tx.em.flush();
    return toView(template, regions);
  });
}

export const updateFreightTemplateRefusals = refusals('NOT_FOUND');

/** Replaces a template's terms and regions as a whole. Orders already placed keep their fee. */
export async function updateFreightTemplate(ctx: ServiceContext, input: unknown): Promise<FreightTemplateView> {
  const operator = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const { templateId, ...data } = parseInput(TemplateInput.extend(TemplateRef.shape), input);
  return inTransaction(ctx, async (tx) => {
    // Locked first: two replacements of one template's regions run one after the other.
    const template = await tx.em.findOne(FreightTemplate, { id: templateId, shop: operator.shopId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!template) throw notFound('Freight template', { template_id: templateId });
    tx.em.assign(template, { name: data.name, ...termsOf(data), updatedAt: new Date() });
    await auditedRows(tx, { type: 'FreightTemplateRegion', column: 'template_id', value: template.id }, () => tx.em.nativeDelete(FreightTemplateRegion, { template }));
    const regions = createRegions(tx.em, template, data.regions);
    await tx.em.flush();
    return toView(template, regions);
  });
}

export const deleteFreightTemplateRefusals = refusals('FREIGHT_TEMPLATE_IN_USE', 'NOT_FOUND');

/** Deletes a template no product uses; one in use is 409 (the restrict foreign key decides, so no race). */
export async function deleteFreightTemplate(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const { templateId } = parseInput(TemplateRef, input);
  await inTransaction(ctx, async (tx) => {
    let deleted: number;
    try {
      deleted = await auditedWrite(tx, { type: 'FreightTemplate', id: templateId }, () => tx.em.nativeDelete(FreightTemplate, { id: templateId, shop: operator.shopId }));
    } catch (error) {
      if (!(error instanceof ForeignKeyConstraintViolationException)) throw error;
      throw conflict('FREIGHT_TEMPLATE_IN_USE', 'Products still use this freight template; assign them another first', { template_id: templateId });
    }
    if (deleted === 0) throw notFound('Freight template', { template_id: templateId });
  });
}

export const AssignInput = z.strictObject({ productId: id, freightTemplateId: id.nullable() });

export const assignFreightTemplateRefusals = refusals('NOT_FOUND');

/**
 * Assigns one of the shop's own templates to one of its products (null: the product ships free).
 * Another shop's product or template is 404.
 */
export async function assignFreightTemplate(ctx: ServiceContext, input: unknown): Promise<FreightAssignmentView> {
  const operator = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const { productId, freightTemplateId } = parseInput(AssignInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    if (freightTemplateId !== null) {
      // `for key share` keeps the template from being deleted until this commits.
      const template = await db
        .selectFrom('FreightTemplate')
        .select('id')
        .where('id', '=', freightTemplateId)
        .where('shop', '=', operator.shopId)
        .forKeyShare()
        .executeTakeFirst();
      if (!template) throw notFound('Freight template', { template_id: freightTemplateId });
    }
    const updated = await auditedWrite(tx, { type: 'Product', id: productId }, () =>
      db
        .updateTable('Product')
        .set({ freightTemplate: freightTemplateId, updatedAt: sql<Date>`now()` })
        .where('id', '=', productId)
        .where('shop', '=', operator.shopId)
        .returning('id')
        .executeTakeFirst(),
    );
    if (!updated) throw notFound('Product', { product_id: productId });
    return { productId, freightTemplateId };
  });
}
