import { LockMode, QueryOrder, type Loaded, type ObjectQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { opt } from '../../shared/values.js';
import { typedSql } from '../../db/typed-sql.js';
import { conflict, notFound, refused } from '../../errors.js';
import { CouponTemplate, CouponTemplateStatus, DiscountKind } from '../../entities/coupon-template.entity.js';
import { Coupon, CouponStatus } from '../../entities/coupon.entity.js';
import { Shop, ShopStatus } from '../../entities/shop.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { Role } from '../../entities/user.entity.js';
import { requireCustomer, requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { COUPON_SPELLINGS, couponTermsSchemas } from './coupon.inputs.js';
import { pageFields, pageOf, pageWindow, type Page } from '../../shared/pagination.js';
import { refusals } from '../../error-codes.js';
import { refuseInactiveShops } from '../catalog/shop-status.js';
import { auditedWrite } from '../../shared/audit.js';
import { count, id as viewId, money, timestamp } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';

/** How a customer sees a coupon: `expired` is computed (now past `validUntil` and not used). */
export enum CouponState {
  Available = 'available',
  Used = 'used',
  Expired = 'expired',
}

/** The terms a template sets and each coupon claimed from it keeps its own copy of. */
const discountTerms = {
  discountKind: z.enum(DiscountKind),
  /** Fixed kind: minor units off. */
  amountOff: money.optional(),
  /** Percent kind: 1..100, rounded down. */
  percentOff: z.number().int().min(1).max(100).optional(),
  /** Percent kind: cap of the discount, minor units. */
  maxDiscount: money.optional(),
  minOrderAmount: money.describe("Threshold: the shop order's items total (base currency minor units) must reach it"),
};
export type DiscountTerms = z.infer<z.ZodObject<typeof discountTerms>>;

/** A template's status (GraphQL's CouponTemplateStatus, whose values a customer's state shares). */
export const couponTemplateStatus = z.enum(CouponTemplateStatus);

/** A coupon template as its shop and the storefront read it: REST publishes this schema and GraphQL's type is made from it. */
export const CouponTemplateView = z.strictObject({
  id: viewId,
  shopId: viewId,
  name: z.string(),
  ...discountTerms,
  validFrom: timestamp.optional(),
  validUntil: timestamp.optional(),
  validDays: z.number().int().positive().optional().describe('Window of validDays from the claim, instead of fixed dates'),
  claimStock: count.describe('Coupons still claimable'),
  status: couponTemplateStatus,
  createdAt: timestamp,
  updatedAt: timestamp,
  claimedCount: count.optional().describe("Coupons claimed from it: in the shop's own list only"),
  usedCount: count.optional().describe("Claimed coupons used at checkout: in the shop's own list only"),
});
export type CouponTemplateView = z.infer<typeof CouponTemplateView>;

/** A claimed coupon as its holder reads it: REST publishes this schema and GraphQL's type is made from it. */
export const CouponView = z.strictObject({
  id: viewId,
  templateId: viewId.optional().describe('Not set once the template was deleted; the coupon stays'),
  shop: ShopRef,
  name: z.string(),
  ...discountTerms,
  validFrom: timestamp,
  validUntil: timestamp,
  status: z.enum(CouponState),
  claimedAt: timestamp,
  usedAt: timestamp.optional(),
});
export type CouponView = z.infer<typeof CouponView>;

/** A coupon as its holder sees it at `now`: `expired` once its window is over, unless it was used. */
function couponState(coupon: { status: CouponStatus; validUntil: Date }, now: Date): CouponState {
  if (coupon.status === CouponStatus.Used) return CouponState.Used;
  return coupon.validUntil <= now ? CouponState.Expired : CouponState.Available;
}

function termsOf(t: CouponTemplate | Coupon): DiscountTerms {
  return {
    discountKind: t.discountKind,
    amountOff: opt(t.amountOff ?? null),
    percentOff: opt(t.percentOff ?? null),
    maxDiscount: opt(t.maxDiscount ?? null),
    minOrderAmount: t.minOrderAmount,
  };
}

function templateView(t: CouponTemplate): CouponTemplateView {
  return {
    id: t.id,
    shopId: t.shop.id,
    name: t.name,
    ...termsOf(t),
    validFrom: opt(t.validFrom ?? null),
    validUntil: opt(t.validUntil ?? null),
    validDays: opt(t.validDays ?? null),
    claimStock: t.claimStock,
    status: t.status,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

function couponView(c: Loaded<Coupon, 'shop'>, now: Date): CouponView {
  return {
    id: c.id,
    templateId: opt(c.template?.id ?? null),
    shop: { id: c.shop.id, slug: c.shop.slug, name: c.shop.name },
    name: c.name,
    ...termsOf(c),
    validFrom: c.validFrom,
    validUntil: c.validUntil,
    status: couponState(c, now),
    claimedAt: c.claimedAt,
    usedAt: opt(c.usedAt ?? null),
  };
}

// Terms: one validation for create and for the merged result of an edit (coupon.inputs.ts), in the
// entities' spellings, which the web app's copy of them must match.
const { Terms, Patch } = couponTermsSchemas(DiscountKind, CouponTemplateStatus);
type Terms = z.output<typeof Terms>;
export { Terms, Patch };
const sameSpellings: { [K in keyof typeof COUPON_SPELLINGS.kinds]: `${(typeof DiscountKind)[K]}` } & { [K in keyof typeof COUPON_SPELLINGS.statuses]: `${(typeof CouponTemplateStatus)[K]}` } = {
  ...COUPON_SPELLINGS.kinds,
  ...COUPON_SPELLINGS.statuses,
};
void sameSpellings;

const TemplateRef = z.object({ templateId: id });
export const MerchantListInput = z.object({ ...pageFields, status: z.enum(CouponTemplateStatus).optional() });
export const ShopListInput = z.object({ ...pageFields, slug: z.string().min(1).max(80) });
export const MyListInput = z.object({ ...pageFields, status: z.enum(CouponState).optional() });

/** The columns of validated terms: a term left out is null (the CHECKs want the other kind's fields empty). */
function termColumns(t: Terms) {
  return {
    name: t.name,
    discountKind: t.discountKind,
    amountOff: t.amountOff ?? null,
    percentOff: t.percentOff ?? null,
    maxDiscount: t.maxDiscount ?? null,
    minOrderAmount: t.minOrderAmount,
    validFrom: t.validFrom ?? null,
    validUntil: t.validUntil ?? null,
    validDays: t.validDays ?? null,
    claimStock: t.claimStock,
    status: t.status,
  };
}

// ---------------------------------------------------------------------------------------------
// Merchant: the operator's own shop only; another shop's template is 404.

export async function listMerchantTemplates(ctx: ServiceContext, input: unknown): Promise<Page<CouponTemplateView>> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const request = parseInput(MerchantListInput, input ?? {});
  const [templates, total] = await ctx.em.findAndCount(
    CouponTemplate,
    { shop: operator.shopId, ...(request.status ? { status: request.status } : {}) },
    { orderBy: { id: QueryOrder.DESC }, ...pageWindow(request) },
  );
  const counts = await claimCounts(ctx.em, templates.map((t) => t.id));
  return pageOf(
    templates.map((t) => ({ ...templateView(t), claimedCount: counts.get(t.id)?.claimed ?? 0, usedCount: counts.get(t.id)?.used ?? 0 })),
    request,
    total,
  );
}

/** Claimed and used coupons of a page of templates, in one statement over `coupon_template_id_index`. */
async function claimCounts(em: EntityManager, templateIds: number[]): Promise<Map<number, { claimed: number; used: number }>> {
  if (templateIds.length === 0) return new Map();
  const rows = await typedSql(em)
    .selectFrom('Coupon')
    .select((eb) => [
      'template as templateId',
      sql<number>`count(*)::int`.as('claimed'),
      sql<number>`(count(*) filter (where ${eb.ref('status')} = ${CouponStatus.Used}))::int`.as('used'),
    ])
    .where('template', 'in', templateIds)
    .groupBy('template')
    .execute();
  return new Map(rows.filter((r) => r.templateId !== null).map((r) => [Number(r.templateId), { claimed: r.claimed, used: r.used }]));
}

export async function createTemplate(ctx: ServiceContext, input: unknown): Promise<CouponTemplateView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const terms = parseInput(Terms, input);
  return inTransaction(ctx, async (tx) => {
    const template = tx.em.create(CouponTemplate, { shop: operator.shopId, ...termColumns(terms) });
    await tx.em.flush();
    return templateView(template);
  });
}

/** The operator's template, or 404. */
async function ownTemplate(em: EntityManager, shopId: number, templateId: number, lockMode?: LockMode): Promise<CouponTemplate> {
  const template = await em.findOne(CouponTemplate, { id: templateId, shop: shopId }, { lockMode });
  if (!template) throw notFound('Coupon template', { template_id: templateId });
  return template;
}

export const updateTemplateRefusals = refusals('NOT_FOUND');

/**
 * Edits a template: the patch is merged into the current terms and the result validated as a whole.
 * Switching the discount kind drops the other kind's fields; giving one window scheme drops the other.
 * Held coupons are snapshots and do not change. The row is locked so a concurrent claim's decrement
 * of `claim_stock` is never overwritten (the edit sets the remaining stock).
 */
export async function updateTemplate(ctx: ServiceContext, input: unknown): Promise<CouponTemplateView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { templateId, ...patch } = parseInput(Patch, input);
  return inTransaction(ctx, async (tx) => {
    const template = await ownTemplate(tx.em, operator.shopId, templateId, LockMode.PESSIMISTIC_WRITE);
    const given = (key: keyof typeof patch) => patch[key] !== undefined;
    const merged: Record<string, unknown> = { ...templateView(template), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    for (const key of ['id', 'shopId', 'createdAt', 'updatedAt']) delete merged[key];
    if (given('discountKind') && patch.discountKind !== template.discountKind) {
      if (patch.discountKind === DiscountKind.Fixed) {
        if (!given('percentOff')) merged.percentOff = null;
        if (!given('maxDiscount')) merged.maxDiscount = null;
      } else if (!given('amountOff')) merged.amountOff = null;
    }
    if (patch.validDays != null && !given('validFrom') && !given('validUntil')) merged.validFrom = merged.validUntil = null;
    if ((patch.validFrom != null || patch.validUntil != null) && !given('validDays')) merged.validDays = null;
    const terms = parseInput(Terms, merged);
    tx.em.assign(template, { ...termColumns(terms), updatedAt: new Date() });
    await tx.em.flush();
    return templateView(template);
  });
}

export const disableTemplateRefusals = refusals('NOT_FOUND');

/** Disabled templates cannot be claimed; coupons already held stay usable. Disabling twice is harmless. */
export async function disableTemplate(ctx: ServiceContext, input: unknown): Promise<CouponTemplateView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { templateId } = parseInput(TemplateRef, input);
  return inTransaction(ctx, async (tx) => {
    const template = await ownTemplate(tx.em, operator.shopId, templateId);
    const status: CouponTemplateStatus = template.status;
    // The flush writes only the changed columns, so a concurrent claim's decrement is kept.
    if (status !== CouponTemplateStatus.Disabled) tx.em.assign(template, { status: CouponTemplateStatus.Disabled, updatedAt: new Date() });
    await tx.em.flush();
    return templateView(template);
  });
}

export const deleteTemplateRefusals = refusals('NOT_FOUND');

/** Deletes a template; held coupons stay, their template link becomes null (foreign key `on delete set null`). */
export async function deleteTemplate(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { templateId } = parseInput(TemplateRef, input);
  const deleted = await inTransaction(ctx, (tx) => auditedWrite(tx, { type: 'CouponTemplate', id: templateId }, () => tx.em.nativeDelete(CouponTemplate, { id: templateId, shop: operator.shopId })));
  if (deleted === 0) throw notFound('Coupon template', { template_id: templateId });
}

// ---------------------------------------------------------------------------------------------
// Customers: claimable templates, claims, own coupons.

/** What can be claimed now: active, with claim stock left, and a fixed window (if any) not yet over. */
const claimable = (now: Date): ObjectQuery<CouponTemplate> => ({
  status: CouponTemplateStatus.Active,
  claimStock: { $gte: 1 },
  $or: [{ validUntil: null }, { validUntil: { $gt: now } }],
});

export const listShopTemplatesRefusals = refusals('NOT_FOUND');

/** A shop's claimable templates, public; an unknown slug is 404. */
export async function listShopTemplates(ctx: ServiceContext, input: unknown): Promise<Page<CouponTemplateView>> {
  const request = parseInput(ShopListInput, input ?? {});
  // A shop that is not active has no storefront page, nor coupons on offer (as catalog's getShop).
  const shop = await ctx.em.findOne(Shop, { slug: request.slug, status: ShopStatus.Active });
  if (!shop) throw notFound('Shop', { slug: request.slug });
  const [templates, total] = await ctx.em.findAndCount(
    CouponTemplate,
    { shop, ...claimable(new Date()) },
    { orderBy: { id: QueryOrder.DESC }, ...pageWindow(request) },
  );
  return pageOf(templates.map(templateView), request, total);
}

export const claimCouponRefusals = refusals('COUPON_ALREADY_CLAIMED', 'COUPON_OUT_OF_STOCK', 'COUPON_TEMPLATE_DISABLED', 'COUPON_TEMPLATE_ENDED', 'NOT_FOUND', 'SHOP_NOT_ACTIVE');

/**
 * Claims a template: one statement decrements the claim stock under its guard and inserts the
 * coupon with a copy of the terms (as the decrement returned them, so a concurrent edit is seen
 * whole or not at all) and the concrete window (fixed, or `valid_days` from now). The unique
 * (customer, template) key makes a second claim insert nothing; then the transaction rolls back
 * the decrement and the reason is looked up, so a refused claim changes nothing. A shop that is not
 * active gives no coupon (SHOP_NOT_ACTIVE); its row stays share-locked until the claim commits, so a
 * suspension comes after the claim or before it, never in between.
 */
export async function claimCoupon(ctx: ServiceContext, input: unknown): Promise<CouponView> {
  const customer = requireCustomer(ctx);
  const { templateId } = parseInput(TemplateRef, input);
  return inTransaction(ctx, async (tx) => {
    const owner = await typedSql(tx.em).selectFrom('CouponTemplate').select('shop').where('id', '=', templateId).executeTakeFirst();
    if (owner) await refuseInactiveShops(tx, [owner.shop]);
    const now = sql<Date>`now()`;
    const claimed = await typedSql(tx.em)
      .with('taken', (db) =>
        db
          .updateTable('CouponTemplate')
          .set((eb) => ({ claimStock: eb('claimStock', '-', 1) }))
          .where('id', '=', templateId)
          .where((eb) =>
            eb.and([
              eb('status', '=', CouponTemplateStatus.Active),
              eb('claimStock', '>=', 1),
              eb.or([eb('validUntil', 'is', null), eb('validUntil', '>', now)]),
            ]),
          )
          // Aliased to the property names: typed SQL maps an entity's columns, not those of a CTE.
          .returning([
            'id', 'shop as shop', 'name', 'discountKind as discountKind', 'amountOff as amountOff', 'percentOff as percentOff',
            'maxDiscount as maxDiscount', 'minOrderAmount as minOrderAmount', 'validFrom as validFrom', 'validUntil as validUntil',
            'validDays as validDays',
          ]),
      )
      .insertInto('Coupon')
      .columns([
        'customer', 'template', 'shop', 'name', 'discountKind', 'amountOff', 'percentOff', 'maxDiscount',
        'minOrderAmount', 'validFrom', 'validUntil', 'status', 'claimedAt',
      ])
      .expression((db) =>
        db.selectFrom('taken').select((eb) => [
          eb.val(customer.userId).as('customer'),
          'taken.id',
          'taken.shop',
          'taken.name',
          'taken.discountKind',
          'taken.amountOff',
          'taken.percentOff',
          'taken.maxDiscount',
          'taken.minOrderAmount',
          eb.fn.coalesce('taken.validFrom', now).as('validFrom'),
          eb.fn.coalesce('taken.validUntil', sql<Date>`${now} + make_interval(days => ${eb.ref('taken.validDays')})`).as('validUntil'),
          eb.val(CouponStatus.Available).as('status'),
          now.as('claimedAt'),
        ]),
      )
      .onConflict((oc) => oc.columns(['customer', 'template']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!claimed) throw await claimRefusal(tx.em, templateId, customer.userId);
    const coupon = await tx.em.findOneOrFail(Coupon, claimed.id, { populate: ['shop'] });
    return couponView(coupon, new Date());
  });
}

async function claimRefusal(em: EntityManager, templateId: number, customerId: number) {
  const t = await typedSql(em)
    .selectFrom('CouponTemplate as t')
    .where('t.id', '=', templateId)
    .select((eb) => [
      't.status',
      eb.and([eb('t.validUntil', 'is not', null), eb('t.validUntil', '<=', sql<Date>`now()`)]).$castTo<boolean>().as('ended'),
      eb
        .exists(eb.selectFrom('Coupon as c').select('c.id').where('c.customer', '=', customerId).where('c.template', '=', templateId))
        .$castTo<boolean>()
        .as('claimed'),
    ])
    .executeTakeFirst();
  const details = { template_id: templateId };
  if (!t) return notFound('Coupon template', details);
  if (t.claimed) return conflict('COUPON_ALREADY_CLAIMED', 'You already hold a coupon from this template', details);
  if (t.status === CouponTemplateStatus.Disabled) return refused('COUPON_TEMPLATE_DISABLED', 'This coupon is no longer offered', details);
  if (t.ended) return refused('COUPON_TEMPLATE_ENDED', "This coupon's validity window is over", details);
  return refused('COUPON_OUT_OF_STOCK', 'No coupons of this kind are left to claim', details);
}

/** The coupons of a state at `now` (the same instant the views compute `status` with). */
function inState(state: CouponState | undefined, now: Date): ObjectQuery<Coupon> {
  switch (state) {
    case undefined:
      return {};
    case CouponState.Used:
      return { status: CouponStatus.Used };
    case CouponState.Expired:
      return { status: CouponStatus.Available, validUntil: { $lte: now } };
    case CouponState.Available:
      return { status: CouponStatus.Available, validUntil: { $gt: now } };
  }
}

/**
 * The calling customer's usable coupons (status available) for each of several shops, in one query,
 * soonest-expiring first; empty for anyone who is not a customer. Backs GraphQL `Shop.myCoupons`.
 */
export async function myUsableCouponsByShop(ctx: ServiceContext, shopIds: readonly number[]): Promise<Map<number, CouponView[]>> {
  const out = new Map<number, CouponView[]>(shopIds.map((shopId) => [shopId, []]));
  if (ctx.actor?.role !== Role.Customer || shopIds.length === 0) return out;
  const now = new Date();
  const coupons = await ctx.em.find(
    Coupon,
    { customer: ctx.actor.userId, shop: { $in: [...shopIds] }, ...inState(CouponState.Available, now) },
    { populate: ['shop'], orderBy: [{ validUntil: QueryOrder.ASC }, { id: QueryOrder.ASC }] },
  );
  for (const coupon of coupons) out.get(coupon.shop.id)?.push(couponView(coupon, now));
  return out;
}

/** The customer's own coupons, newest first, with their computed status (filterable). */
export async function listMyCoupons(ctx: ServiceContext, input: unknown): Promise<Page<CouponView>> {
  const customer = requireCustomer(ctx);
  const request = parseInput(MyListInput, input ?? {});
  const now = new Date();
  const [coupons, total] = await ctx.em.findAndCount(
    Coupon,
    { customer: customer.userId, ...inState(request.status, now) },
    { populate: ['shop'], orderBy: { id: QueryOrder.DESC }, ...pageWindow(request) },
  );
  return pageOf(coupons.map((c) => couponView(c, now)), request, total);
}
