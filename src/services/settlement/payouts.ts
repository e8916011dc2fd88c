import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound, validationError } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import { Payout, PayoutBatch, PayoutStatus } from '../../entities/settlement.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { id, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { BatchInput } from './payout.inputs.js';
import { PLATFORM_CLEARING, transferHeld } from '../accounts/ledger.service.js';
import { auditedWrite } from '../../shared/audit.js';
import { count, id as viewId, money, timestamp } from '../../shared/view-fields.js';

/**
 * Payouts: a platform admin's batch pays every shop whose available balance reached a threshold
 * (available -> in transit), the bank's answer settles each payout (in transit -> clearing when paid,
 * back to available when failed; a payout that fails after it was reported paid comes back from
 * clearing, the bank having returned it).
 */

/** The views of payouts: REST publishes these schemas and GraphQL's types are made from them. */
export const PayoutView = z.strictObject({
  id: viewId,
  batchId: viewId,
  shopId: viewId,
  // The console and the bank's file name the shop, not its id.
  shopName: z.string().describe("The shop's name now"),
  amount: money,
  status: z.enum(PayoutStatus),
  failureReason: z.string().nullable(),
  failedAfterPaid: z.boolean().describe('The bank reported it paid, then returned it'),
  createdAt: timestamp,
  settledAt: timestamp.nullable(),
});
export type PayoutView = z.infer<typeof PayoutView>;

export const PayoutBatchView = z.strictObject({ id: viewId, threshold: money, createdAt: timestamp, total: money, payouts: z.array(PayoutView) });
export type PayoutBatchView = z.infer<typeof PayoutBatchView>;

/** A batch in the list of batches: its payouts counted and summed, not listed. */
export const PayoutBatchSummaryView = z.strictObject({ id: viewId, threshold: money, createdAt: timestamp, payoutCount: count, total: money });
export type PayoutBatchSummaryView = z.infer<typeof PayoutBatchSummaryView>;

/** Payouts as their view reads them, with their shop's name; callers add their filter. */
const payoutRows = (em: EntityManager) =>
  typedSql(em)
    .selectFrom('Payout as p')
    .innerJoin('Shop as s', 's.id', 'p.shop')
    .select(['p.id', 'p.batch as batchId', 'p.shop as shopId', 's.name as shopName', 'p.amount', 'p.status', 'p.failureReason', 'p.failedAfterPaid', 'p.createdAt', 'p.settledAt']);

async function batchView(ctx: ServiceContext, batchId: number): Promise<PayoutBatchView> {
  const view = await findBatch(ctx, batchId);
  if (!view) throw notFound('Payout batch', { batch_id: batchId });
  return view;
}

async function findBatch(ctx: ServiceContext, batchId: number): Promise<PayoutBatchView | undefined> {
  const db = typedSql(ctx.em);
  const batch = await db.selectFrom('PayoutBatch').select(['id', 'threshold', 'createdAt']).where('id', '=', batchId).executeTakeFirst();
  if (!batch) return undefined;
  const payouts = await payoutRows(ctx.em).where('p.batch', '=', batchId).orderBy('p.id').execute();
  return { ...batch, payouts, total: payouts.reduce((sum, p) => sum + p.amount, 0) };
}


export const createPayoutBatchRefusals = refusals('FORBIDDEN', 'VALIDATION_FAILED');

/**
 * One batch: every active shop whose available balance is at least `threshold` gets a payout of all
 * of it, moved to in transit (a suspended shop's payouts are held until it is reinstated). The shops' available rows are locked as they are chosen (`for no key update`,
 * re-checked after a wait), so two batches at once, or a batch and a refund, never pay the same money
 * twice: the second batch finds the balance already in transit.
 */
export async function createPayoutBatch(ctx: ServiceContext, input: unknown): Promise<PayoutBatchView> {
  const admin = requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const { threshold } = parseInput(BatchInput, input);
  const batchId = await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    // A suspended (or closed) shop's payouts are held: it is skipped, its balance stays available. The
    // shop's row is not locked: a batch that read it active is ordered before a suspension committing
    // meanwhile, as an order placed before it (the money was due then), and a batch never waits for
    // the checkouts that share-lock their shops.
    const due = await db
      .selectFrom('Balance as b')
      .innerJoin('Shop as s', 's.id', 'b.shop')
      .select(['b.shop as shop', 'b.amount as amount'])
      .where('b.kind', '=', BalanceKind.ShopAvailable)
      .where('b.amount', '>=', threshold)
      .where('s.status', '=', ShopStatus.Active)
      .orderBy('b.shop')
      .forNoKeyUpdate('b')
      .execute();
    // A batch pays someone: an empty one would be a file with no line for the bank, so the threshold is refused.
    if (due.length === 0) {
      const message = 'no shop has this much available: lower the threshold, or wait for earnings to be released';
      throw validationError(`threshold: ${message}`, { problems: [{ field: 'threshold', message }] });
    }
    const batch = tx.em.create(PayoutBatch, { createdBy: admin.userId, threshold });
    await tx.em.flush();
    for (const row of due) {
      const shopId = row.shop!;
      const amount = Number(row.amount);
      const payout = tx.em.create(Payout, { batch: batch.id, shop: shopId, amount });
      await tx.em.flush();
      await transferHeld(tx.em, {
        from: { shop: shopId, kind: BalanceKind.ShopAvailable },
        to: { shop: shopId, kind: BalanceKind.ShopInTransit },
        amount,
        reason: 'payout',
        reference: { type: 'payout', id: payout.id },
      });
      emit(tx, { type: 'payout.created', shopIds: [shopId], customerId: null, payload: { payoutId: payout.id, batchId: batch.id, shopId, amount } });
    }
    return batch.id;
  });
  // Committed just now: it is there.
  return (await findBatch(ctx, batchId))!;
}

const BatchRef = z.object({ batchId: id });

export const getPayoutBatchRefusals = refusals('FORBIDDEN', 'NOT_FOUND');

export async function getPayoutBatch(ctx: ServiceContext, input: unknown): Promise<PayoutBatchView> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const { batchId } = parseInput(BatchRef, input);
  return batchView(ctx, batchId);
}

export const listPayoutBatchesRefusals = refusals('FORBIDDEN');

export async function listPayoutBatches(ctx: ServiceContext): Promise<PayoutBatchSummaryView[]> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const rows = await typedSql(ctx.em)
    .selectFrom('PayoutBatch as b')
    .leftJoin('Payout as p', 'p.batch', 'b.id')
    .select((eb) => ['b.id', 'b.threshold', 'b.createdAt', eb.fn.count<string>('p.id').as('payoutCount'), eb.fn.coalesce(eb.fn.sum<string>('p.amount'), eb.lit(0)).as('total')])
    .groupBy('b.id')
    .orderBy('b.id', 'desc')
    .limit(100)
    .execute();
  return rows.map((r) => ({ ...r, payoutCount: Number(r.payoutCount), total: Number(r.total) }));
}

const csvField = (value: string | number) => (/[",\n\r]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value));

export const exportPayoutBatchCsvRefusals = refusals('FORBIDDEN', 'NOT_FOUND');

/** The bank's file of a batch: one line per payout (RFC 4180 quoting), amounts in minor units. */
export async function exportPayoutBatchCsv(ctx: ServiceContext, input: unknown): Promise<string> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const { batchId } = parseInput(BatchRef, input);
  await batchView(ctx, batchId);
  const rows = await typedSql(ctx.em)
    .selectFrom('Payout as p')
    .innerJoin('Shop as s', 's.id', 'p.shop')
    .select(['p.id', 'p.shop', 's.name', 's.slug', 'p.amount', 'p.status'])
    .where('p.batch', '=', batchId)
    .orderBy('p.id')
    .execute();
  const lines = [['payout_id', 'shop_id', 'shop_slug', 'shop_name', 'amount', 'currency', 'status'].join(',')];
  for (const r of rows) lines.push([r.id, r.shop, r.slug, r.name, r.amount, 'CNY', r.status].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const SettleInput = z.object({
  payoutId: id,
  status: z.enum([PayoutStatus.Paid, PayoutStatus.Failed]),
  failureReason: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(200).optional(),
});

/** What the request body carries (the payout is the path's): the one description REST documents. */
export const SettlePayoutBody = SettleInput.omit({ payoutId: true });

export const settlePayoutRefusals = refusals('FORBIDDEN', 'NOT_FOUND', 'PAYOUT_WRONG_STATE', 'VALIDATION_FAILED');

/**
 * The bank's answer for one payout, as a conditional UPDATE of its status (so of two answers at once
 * one wins, and a repeated answer changes nothing):
 *   pending -> paid:   in transit -> platform clearing (the money left the mall)
 *   pending -> failed: in transit -> shop available
 *   paid -> failed:    platform clearing -> shop available (the bank returned it), `failedAfterPaid`
 * A failed payout stays failed (409 PAYOUT_WRONG_STATE for a later `paid`).
 */
export async function settlePayout(ctx: ServiceContext, input: unknown): Promise<PayoutView> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const data = parseInput(SettleInput, input);
  await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const from = data.status === PayoutStatus.Paid ? [PayoutStatus.Pending] : [PayoutStatus.Pending, PayoutStatus.Paid];
    const before = await db.selectFrom('Payout').select(['status', 'shop', 'amount']).where('id', '=', data.payoutId).executeTakeFirst();
    if (!before) throw notFound('Payout', { payout_id: data.payoutId });
    const moved = await auditedWrite(tx, { type: 'Payout', id: data.payoutId }, () =>
      db
        .updateTable('Payout')
        .set((eb) => ({
          status: data.status,
          settledAt: sql<Date>`now()`,
          failureReason: data.status === PayoutStatus.Failed ? (data.failureReason ?? null) : null,
          failedAfterPaid: data.status === PayoutStatus.Failed ? sql<boolean>`${eb.ref('status')} = ${PayoutStatus.Paid}` : false,
        }))
        .where('id', '=', data.payoutId)
        .where('status', 'in', from)
        // Which state it left, read by the same statement that moved it (not by the read above).
        .returning(['shop', 'amount', 'failedAfterPaid'])
        .executeTakeFirst(),
    );
    if (!moved) {
      const now = await db.selectFrom('Payout').select('status').where('id', '=', data.payoutId).executeTakeFirstOrThrow();
      if (now.status === data.status) return;
      throw conflict('PAYOUT_WRONG_STATE', `This payout is ${now.status}; it must be ${from.join(' or ')}`, { status: now.status, expected: from });
    }
    const shopId = moved.shop;
    const reference = { type: 'payout', id: data.payoutId };
    const available = { shop: shopId, kind: BalanceKind.ShopAvailable } as const;
    const transit = { shop: shopId, kind: BalanceKind.ShopInTransit } as const;
    if (data.status === PayoutStatus.Paid) {
      await transferHeld(tx.em, { from: transit, to: PLATFORM_CLEARING, amount: moved.amount, reason: 'payout_paid', reference });
    } else if (moved.failedAfterPaid) {
      await transferHeld(tx.em, { from: PLATFORM_CLEARING, to: available, amount: moved.amount, reason: 'payout_returned', reference });
    } else {
      await transferHeld(tx.em, { from: transit, to: available, amount: moved.amount, reason: 'payout_failed', reference });
    }
    emit(tx, {
      type: 'payout.settled',
      shopIds: [shopId],
      customerId: null,
      payload: { payoutId: data.payoutId, shopId, amount: moved.amount, status: data.status, failedAfterPaid: moved.failedAfterPaid },
    });
  });
  const [view] = await payoutRows(ctx.em).where('p.id', '=', data.payoutId).execute();
  return view;
}

export { payoutRows };
