import { notFound } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { CommissionRate } from '../../entities/settlement.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { dateTime, id, onceFieldsFit, parseInput, z } from '../../shared/validate.js';
import { id as viewId, timestamp } from '../../shared/view-fields.js';

/** A shop's commission rate: REST publishes this schema and GraphQL's type is made from it. */
export const CommissionRateView = z.strictObject({
  id: viewId,
  shopId: viewId,
  categoryId: viewId.nullable(),
  rateBp: z.number().int().min(0).max(10_000).describe('Basis points of what the customer paid (100 = 1%)'),
  validFrom: timestamp,
  validUntil: timestamp.nullable(),
});
export type CommissionRateView = z.infer<typeof CommissionRateView>;

/** A rate as an admin adds it; `validFrom` defaults to now, and the window must end after it starts. */
export const CommissionRateInput = z
  .object({
    shopId: id,
    categoryId: id.nullable().optional(),
    rateBp: z.number().int().min(0).max(10_000),
    validFrom: dateTime.optional(),
    validUntil: dateTime.nullable().optional(),
  })
  .strict()
  .transform((r) => ({ ...r, validFrom: r.validFrom ?? new Date() }))
  .refine((r) => !r.validUntil || r.validUntil > r.validFrom, { ...onceFieldsFit, message: 'must be after valid_from (now when left out)', path: ['validUntil'] });

const columns = ['id', 'shop as shopId', 'category as categoryId', 'rateBp', 'validFrom', 'validUntil'] as const;

export const addCommissionRateRefusals = refusals('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED');

/**
 * A platform admin adds a rate (basis points) for a shop, for one category (and its subcategories)
 * or for the rest, from `validFrom` (now by default) until `validUntil` (open-ended). Rates are never
 * edited: a new one with a later `validFrom` takes over, and orders keep the commission of their payment.
 */
export async function addCommissionRate(ctx: ServiceContext, input: unknown): Promise<CommissionRateView> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const data = parseInput(CommissionRateInput, input);
  const rateId = await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    if (!(await db.selectFrom('Shop').select('id').where('id', '=', data.shopId).executeTakeFirst())) throw notFound('Shop', { shop_id: data.shopId });
    if (data.categoryId && !(await db.selectFrom('Category').select('id').where('id', '=', data.categoryId).executeTakeFirst())) {
      throw notFound('Category', { id: data.categoryId });
    }
    const rate = tx.em.create(CommissionRate, {
      shop: data.shopId,
      category: data.categoryId ?? null,
      rateBp: data.rateBp,
      validFrom: data.validFrom,
      validUntil: data.validUntil ?? null,
    });
    await tx.em.flush();
    return rate.id;
  });
  return typedSql(ctx.em).selectFrom('CommissionRate').select(columns).where('id', '=', rateId).executeTakeFirstOrThrow();
}

export const listCommissionRatesRefusals = refusals('FORBIDDEN', 'NOT_FOUND');

export async function listCommissionRates(ctx: ServiceContext, input: unknown): Promise<CommissionRateView[]> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const { shopId } = parseInput(z.object({ shopId: id }), input);
  if (!(await typedSql(ctx.em).selectFrom('Shop').select('id').where('id', '=', shopId).executeTakeFirst())) throw notFound('Shop', { shop_id: shopId });
  return typedSql(ctx.em).selectFrom('CommissionRate').select(columns).where('shop', '=', shopId).orderBy('validFrom', 'desc').orderBy('id', 'desc').limit(200).execute();
}
