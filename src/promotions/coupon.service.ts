import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate, opt } from '../shared/values.js';
import { intArray } from '../db/sql.js';
import { conflict, notFound, refused } from '../errors.js';
import { CouponTemplateStatus, DiscountKind } from '../entities/coupon-template.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { Role } from '../entities/user.entity.js';
import { requireCustomer, requireOperator } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { id, money, parseInput, quantity, z } from '../shared/validate.js';
import { pageOffset, pageFields, type Page, type PageRequest } from '../shared/pagination.js';

/** How a customer sees a coupon: `expired` is computed (now past `validUntil` and not used). */
export enum CouponState {
  Available = 'available',
  Used = 'used',
  Expired = 'expired',
}

export interface DiscountTerms {
  discountKind: DiscountKind;
  /** Fixed kind: minor units off. */
  amountOff?: number;
  /** Percent kind: 1..100, rounded down. */
  percentOff?: number;
  /** Percent kind: cap of the discount, minor units. */
  maxDiscount?: number;
  /** Threshold: the shop order's items total must be at least this (base currency minor units). */
  minOrderAmount: number;
}

export interface CouponTemplateView extends DiscountTerms {
  id: number;
  shopId: number;
  name: string;
  validFrom?: Date;
  validUntil?: Date;
  validDays?: number;
  claimStock: number;
  status: CouponTemplateStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface CouponView extends DiscountTerms {
  id: number;
  /** Absent once the template was deleted; the coupon itself stays. */
  templateId?: number;
  shop: { id: number; slug: string; name: string };
  name: string;
  validFrom: Date;
  validUntil: Date;
  status: CouponState;
  claimedAt: Date;
  usedAt?: Date;
}


/**
 * Raw queries (`em.execute`) return timestamptz as PostgreSQL text (`2026-11-22 02:52:17.31+00`);
 * views hand out Dates so both doors serialise ISO 8601.
 */
const optDate = (v: string | Date | null): Date | undefined => (v === null ? undefined : toDate(v));

function termsOf(r: any): DiscountTerms {
  return {
    discountKind: r.discount_kind,
    amountOff: opt(r.amount_off),
    percentOff: opt(r.percent_off),
    maxDiscount: opt(r.max_discount),
    minOrderAmount: r.min_order_amount,
  };
}

function templateView(r: any): CouponTemplateView {
  return {
    id: r.id,
    shopId: r.shop_id,
    name: r.name,
    ...termsOf(r),
    validFrom: optDate(r.valid_from),
    validUntil: optDate(r.valid_until),
    validDays: opt(r.valid_days),
    claimStock: r.claim_stock,
    status: r.status,
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

function couponView(r: any): CouponView {
  return {
    id: r.id,
    templateId: opt(r.template_id),
    shop: { id: r.shop_id, slug: r.shop_slug, name: r.shop_name },
    name: r.name,
    ...termsOf(r),
    validFrom: toDate(r.valid_from),
    validUntil: toDate(r.valid_until),
    status: r.state,
    claimedAt: toDate(r.claimed_at),
    usedAt: optDate(r.used_at),
  };
}

// ---------------------------------------------------------------------------------------------
// Terms: one validation for create and for the merged result of an edit.

const dateTime = z
  .union([z.date(), z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time with an offset' })])
  .transform((v) => new Date(v))
  .refine((d) => !Number.isNaN(d.getTime()), 'expected a valid date-time');

const positiveMoney = z.number().int().min(1, 'must be a positive amount in minor units').max(2_000_000_000);

const TermFields = {
  name: z.string().trim().min(1).max(120),
  discountKind: z.enum(DiscountKind),
  amountOff: positiveMoney.nullish(),
  percentOff: z.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').nullish(),
  maxDiscount: positiveMoney.nullish(),
  minOrderAmount: money,
  validFrom: dateTime.nullish(),
  validUntil: dateTime.nullish(),
  validDays: z.number().int().min(1).max(3650).nullish(),
  claimStock: quantity,
  status: z.enum(CouponTemplateStatus),
};

const Terms = z
  .object({ ...TermFields, minOrderAmount: money.default(0), status: TermFields.status.default(CouponTemplateStatus.Active) })
  .strict()
  .superRefine((t, issue) => {
    const problem = (path: string, message: string) => issue.addIssue({ code: 'custom', path: [path], message });
    if (t.discountKind === DiscountKind.Fixed) {
      if (t.amountOff == null) problem('amountOff', 'a fixed discount needs amount_off');
      if (t.percentOff != null) problem('percentOff', 'percent_off belongs to a percent discount');
      if (t.maxDiscount != null) problem('maxDiscount', 'max_discount caps a percent discount only');
    } else {
      if (t.percentOff == null) problem('percentOff', 'a percent discount needs percent_off');
      if (t.amountOff != null) problem('amountOff', 'amount_off belongs to a fixed discount');
    }
    if (t.validDays != null) {
      if (t.validFrom != null || t.validUntil != null) problem('validDays', 'give either valid_days or valid_from and valid_until, not both');
    } else if (t.validFrom == null || t.validUntil == null) {
      problem(t.validFrom == null ? 'validFrom' : 'validUntil', 'give valid_from and valid_until, or valid_days');
    } else if (t.validUntil <= t.validFrom) {
      problem('validUntil', 'the window must end after it starts');
    }
  });
type Terms = z.output<typeof Terms>;

const Patch = z
  .object({
    templateId: id,
    ...Object.fromEntries(Object.entries(TermFields).map(([k, v]) => [k, v.optional()])),
  })
  .strict();

const TemplateRef = z.object({ templateId: id });
const MerchantListInput = z.object({ ...pageFields, status: z.enum(CouponTemplateStatus).optional() });
const ShopListInput = z.object({ ...pageFields, slug: z.string().min(1).max(80) });
const MyListInput = z.object({ ...pageFields, status: z.enum(CouponState).optional() });

const TEMPLATE_COLUMNS = `name, discount_kind, amount_off, percent_off, max_discount, min_order_amount, valid_from, valid_until, valid_days, claim_stock, status`;

function termValues(t: Terms): unknown[] {
  return [
    t.name, t.discountKind, t.amountOff ?? null, t.percentOff ?? null, t.maxDiscount ?? null, t.minOrderAmount,
    t.validFrom ?? null, t.validUntil ?? null, t.validDays ?? null, t.claimStock, t.status,
  ];
}

/** A page of rows from a query that selects `count(*) over () as total_count`; counts apart only past the end. */
async function pageOf<T>(
  em: EntityManager,
  sql: { select: string; from: string; orderBy: string },
  params: unknown[],
  page: PageRequest,
  view: (row: any) => T,
): Promise<Page<T>> {
  const rows = await em.execute<any[]>(
    `select ${sql.select}, count(*) over () as total_count from ${sql.from} order by ${sql.orderBy} limit ? offset ?`,
    [...params, page.pageSize, pageOffset(page)],
  );
  let total = rows.length > 0 ? Number(rows[0].total_count) : 0;
  if (rows.length === 0 && page.page > 1) {
    total = (await em.execute<{ n: number }[]>(`select count(*)::int as n from ${sql.from}`, params))[0].n;
  }
  return { items: rows.map(view), page: page.page, pageSize: page.pageSize, total };
}

// ---------------------------------------------------------------------------------------------
// Merchant: the operator's own shop only; another shop's template is 404.

export function listMerchantTemplates(ctx: ServiceContext, input: unknown): Promise<Page<CouponTemplateView>> {
  const operator = requireOperator(ctx);
  const request = parseInput(MerchantListInput, input ?? {});
  return pageOf(
    ctx.em,
    { select: '*', from: `coupon_template where shop_id = ? and (?::text is null or status = ?::text)`, orderBy: 'id desc' },
    [operator.shopId, request.status ?? null, request.status ?? null],
    request,
    templateView,
  );
}

export async function createTemplate(ctx: ServiceContext, input: unknown): Promise<CouponTemplateView> {
  const operator = requireOperator(ctx);
  const terms = parseInput(Terms, input);
  const [row] = await ctx.em.execute<any[]>(
    `insert into coupon_template (shop_id, ${TEMPLATE_COLUMNS}, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now()) returning *`,
    [operator.shopId, ...termValues(terms)],
  );
  return templateView(row);
}

/**
 * Edits a template: the patch is merged into the current terms and the result validated as a whole.
 * Switching the discount kind drops the other kind's fields; giving one window scheme drops the other.
 * Held coupons are snapshots and do not change. The row is locked so a concurrent claim's decrement
 * of `claim_stock` is never overwritten (the edit sets the remaining stock).
 */
export async function updateTemplate(ctx: ServiceContext, input: unknown): Promise<CouponTemplateView> {
  const operator = requireOperator(ctx);
  const { templateId, ...patch } = parseInput(Patch, input) as { templateId: number } & Partial<Terms>;
  return inTransaction(ctx, async (tx) => {
    const [current] = await tx.em.execute<any[]>('select * from coupon_template where id = ? and shop_id = ? for update', [templateId, operator.shopId]);
    if (!current) throw notFound('Coupon template', { template_id: templateId });
    const given = (key: keyof Terms) => patch[key] !== undefined;
    const merged: Record<string, unknown> = { ...templateView(current), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    for (const key of ['id', 'shopId', 'createdAt', 'updatedAt']) delete merged[key];
    if (given('discountKind') && patch.discountKind !== current.discount_kind) {
      if (patch.discountKind === DiscountKind.Fixed) {
        if (!given('percentOff')) merged.percentOff = null;
        if (!given('maxDiscount')) merged.maxDiscount = null;
      } else if (!given('amountOff')) merged.amountOff = null;
    }
    if (patch.validDays != null && !given('validFrom') && !given('validUntil')) merged.validFrom = merged.validUntil = null;
    if ((patch.validFrom != null || patch.validUntil != null) && !given('validDays')) merged.validDays = null;
    const terms = parseInput(Terms, merged);
    const [row] = await tx.em.execute<any[]>(
      `update coupon_template set (${TEMPLATE_COLUMNS}, updated_at) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now()) where id = ? returning *`,
      [...termValues(terms), templateId],
    );
    return templateView(row);
  });
}

/** Disabled templates cannot be claimed; coupons already held stay usable. Disabling twice is harmless. */
export async function disableTemplate(ctx: ServiceContext, input: unknown): Promise<CouponTemplateView> {
  const operator = requireOperator(ctx);
  const { templateId } = parseInput(TemplateRef, input);
  const [row] = await ctx.em.execute<any[]>(
    `update coupon_template set status = 'disabled', updated_at = case when status = 'disabled' then updated_at else now() end
      where id = ? and shop_id = ? returning *`,
    [templateId, operator.shopId],
  );
  if (!row) throw notFound('Coupon template', { template_id: templateId });
  return templateView(row);
}

/** Deletes a template; held coupons stay, their template link becomes null (foreign key `on delete set null`). */
export async function deleteTemplate(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireOperator(ctx);
  const { templateId } = parseInput(TemplateRef, input);
  const deleted = await ctx.em.execute<any[]>('delete from coupon_template where id = ? and shop_id = ? returning id', [templateId, operator.shopId]);
  if (deleted.length === 0) throw notFound('Coupon template', { template_id: templateId });
}

// ---------------------------------------------------------------------------------------------
// Customers: claimable templates, claims, own coupons.

/** What can be claimed now: active, with claim stock left, and a fixed window (if any) not yet over. */
const CLAIMABLE = `status = 'active' and claim_stock >= 1 and (valid_until is null or valid_until > now())`;

/** A shop's claimable templates, public; an unknown slug is 404. */
export async function listShopTemplates(ctx: ServiceContext, input: unknown): Promise<Page<CouponTemplateView>> {
  const request = parseInput(ShopListInput, input ?? {});
  const [shop] = await ctx.em.execute<{ id: number }[]>('select id from shop where slug = ?', [request.slug]);
  if (!shop) throw notFound('Shop', { slug: request.slug });
  return pageOf(ctx.em, { select: '*', from: `coupon_template where shop_id = ? and ${CLAIMABLE}`, orderBy: 'id desc' }, [shop.id], request, templateView);
}

const COUPON_STATE = `case when c.status = 'used' then 'used' when c.valid_until <= now() then 'expired' else 'available' end`;

/**
 * Claims a template: one statement decrements the claim stock under its guard and inserts the
 * coupon with a copy of the terms and the concrete window (fixed, or `valid_days` from now). The
 * unique (customer, template) key makes a second claim insert nothing; then the transaction rolls
 * back the decrement and the reason is looked up, so a refused claim changes nothing.
 */
export async function claimCoupon(ctx: ServiceContext, input: unknown): Promise<CouponView> {
  const customer = requireCustomer(ctx);
  const { templateId } = parseInput(TemplateRef, input);
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.em.execute<any[]>(
      `with t as (
         update coupon_template set claim_stock = claim_stock - 1 where id = ? and ${CLAIMABLE} returning *
       ), c as (
         insert into coupon (customer_id, template_id, shop_id, name, discount_kind, amount_off, percent_off, max_discount,
                             min_order_amount, valid_from, valid_until, status, claimed_at)
         select ?, t.id, t.shop_id, t.name, t.discount_kind, t.amount_off, t.percent_off, t.max_discount, t.min_order_amount,
                coalesce(t.valid_from, now()), coalesce(t.valid_until, now() + make_interval(days => t.valid_days)), 'available', now()
           from t
         on conflict (customer_id, template_id) do nothing
         returning *
       )
       select c.*, ${COUPON_STATE} as state, s.slug as shop_slug, s.name as shop_name from c join shop s on s.id = c.shop_id`,
      [templateId, customer.userId],
    );
    if (row) return couponView(row);
    throw await claimRefusal(tx.em, templateId, customer.userId);
  });
}

async function claimRefusal(em: EntityManager, templateId: number, customerId: number) {
  const [t] = await em.execute<any[]>(
    `select status, claim_stock, valid_until is not null and valid_until <= now() as ended,
            exists (select 1 from coupon where customer_id = ? and template_id = ?) as claimed
       from coupon_template where id = ?`,
    [customerId, templateId, templateId],
  );
  const details = { template_id: templateId };
  if (!t) return notFound('Coupon template', details);
  if (t.claimed) return conflict('COUPON_ALREADY_CLAIMED', 'You already hold a coupon from this template', details);
  if (t.status === CouponTemplateStatus.Disabled) return refused('COUPON_TEMPLATE_DISABLED', 'This coupon is no longer offered', details);
  if (t.ended) return refused('COUPON_TEMPLATE_ENDED', "This coupon's validity window is over", details);
  return refused('COUPON_OUT_OF_STOCK', 'No coupons of this kind are left to claim', details);
}

/**
 * The calling customer's usable coupons (status available) for each of several shops, in one query,
 * soonest-expiring first; empty for anyone who is not a customer. Backs GraphQL `Shop.myCoupons`.
 */
export async function myUsableCouponsByShop(ctx: ServiceContext, shopIds: readonly number[]): Promise<Map<number, CouponView[]>> {
  const out = new Map<number, CouponView[]>(shopIds.map((shopId) => [shopId, []]));
  if (ctx.actor?.role !== Role.Customer || shopIds.length === 0) return out;
  const rows = await ctx.em.execute<any[]>(
    `select c.*, ${COUPON_STATE} as state, s.slug as shop_slug, s.name as shop_name
       from coupon c join shop s on s.id = c.shop_id
      where c.customer_id = ? and c.shop_id = any(?::int[]) and c.status = 'available' and c.valid_until > now()
      order by c.valid_until, c.id`,
    [ctx.actor.userId, intArray([...shopIds])],
  );
  for (const row of rows) out.get(row.shop_id)?.push(couponView(row));
  return out;
}

/** The customer's own coupons, newest first, with their computed status (filterable). */
export function listMyCoupons(ctx: ServiceContext, input: unknown): Promise<Page<CouponView>> {
  const customer = requireCustomer(ctx);
  const request = parseInput(MyListInput, input ?? {});
  return pageOf(
    ctx.em,
    {
      select: `c.*, ${COUPON_STATE} as state, s.slug as shop_slug, s.name as shop_name`,
      from: `coupon c join shop s on s.id = c.shop_id where c.customer_id = ? and (?::text is null or ${COUPON_STATE} = ?::text)`,
      orderBy: 'c.id desc',
    },
    [customer.userId, request.status ?? null, request.status ?? null],
    request,
    couponView,
  );
}
