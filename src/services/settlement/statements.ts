import { sql } from 'kysely';
import { PaymentRefundStatus, PaymentStatus } from '../../entities/payment.entity.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { BASE_CURRENCY } from '../../currency.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { LEDGER_REASONS } from '../../entities/ledger-entry.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission, requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { calendarDate, onceFieldsFit, parseInput, z } from '../../shared/validate.js';
import { validationError } from '../../errors.js';
import { idPage, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { payoutRows, type PayoutView } from './payouts.js';
import { id as viewId, money, timestamp } from '../../shared/view-fields.js';
import type { ProviderDayView, ReconciliationDayView, ReconciliationView } from './reconciliation-view.js';

/** A shop's own accounts (the platform's commission on its sales is the platform's, not shown to it). */
const SHOP_OWN_KINDS = [BalanceKind.ShopPending, BalanceKind.ShopAvailable, BalanceKind.ShopInTransit, BalanceKind.ShopDebt] as const;
type ShopOwnKind = (typeof SHOP_OWN_KINDS)[number];

/** A shop's balances: REST publishes this schema and GraphQL's type is made from it. */
export const ShopBalancesView = z
  .strictObject({
    currency: z.string(),
    pending: money.describe('Earned on orders not completed yet'),
    available: money.describe('Payable in the next payout batch'),
    inTransit: money.describe('In payouts sent to the bank, not yet answered'),
    debt: z.number().int().max(0).describe('What refunds took beyond the available balance (zero or negative), netted from the next earnings'),
  })
  .describe("A shop's balances, in minor units of `currency`");
export type ShopBalancesView = z.infer<typeof ShopBalancesView>;

export const shopBalancesRefusals = refusals('FORBIDDEN');

export async function shopBalances(ctx: ServiceContext): Promise<ShopBalancesView> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopMoneyRead);
  const rows = await typedSql(ctx.em).selectFrom('Balance').select(['kind', 'amount']).where('shop', '=', shopId).where('kind', 'in', [...SHOP_OWN_KINDS]).execute();
  const of = (kind: ShopOwnKind) => Number(rows.find((r) => r.kind === kind)?.amount ?? 0);
  return {
    currency: BASE_CURRENCY.code,
    pending: of(BalanceKind.ShopPending),
    available: of(BalanceKind.ShopAvailable),
    inTransit: of(BalanceKind.ShopInTransit),
    debt: of(BalanceKind.ShopDebt),
  };
}

/** One entry of a shop's statement: REST publishes this schema and GraphQL's type is made from it. */
export const StatementEntryView = z
  .strictObject({
    id: viewId,
    account: z.enum(SHOP_OWN_KINDS),
    delta: z.number().int(),
    balanceAfter: z.number().int(),
    reason: z.enum(LEDGER_REASONS),
    // What the entry is about: an order, a refund or a payout (null for the ledger's opening).
    orderId: viewId.nullable(),
    refundId: viewId.nullable(),
    payoutId: viewId.nullable(),
    createdAt: timestamp,
  })
  .describe("One entry of a shop's accounts");
export type StatementEntryView = z.infer<typeof StatementEntryView>;

const StatementInput = z.object({ ...pageFields, account: z.enum(SHOP_OWN_KINDS).optional() });

export const shopStatementRefusals = refusals('FORBIDDEN');

/**
 * Every entry of the shop's accounts, newest first: per account the entries add up to its balance
 * (the last entry's `balanceAfter` is the balance).
 */
export async function shopStatement(ctx: ServiceContext, input: unknown): Promise<Page<StatementEntryView>> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopMoneyRead);
  const { account, ...paging } = parseInput(StatementInput, input ?? {});
  const db = typedSql(ctx.em);
  const entries = db
    .selectFrom('LedgerEntry')
    .innerJoin('Balance as b', 'b.id', 'LedgerEntry.balance')
    .where('b.shop', '=', shopId)
    .where('b.kind', 'in', account ? [account] : [...SHOP_OWN_KINDS]);
  const [{ total }] = await entries.select((eb) => eb.fn.countAll<string>().as('total')).execute();
  const rows = await entries
    .select(['LedgerEntry.id', 'b.kind', 'LedgerEntry.delta', 'LedgerEntry.balanceAfter', 'LedgerEntry.reason', 'LedgerEntry.referenceType', 'LedgerEntry.referenceId', 'LedgerEntry.createdAt'])
    .orderBy('LedgerEntry.id', 'desc')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  const ref = (type: string, row: { referenceType: string | null; referenceId: number | null }) => (row.referenceType === type ? row.referenceId : null);
  const items = rows.map((r) => ({
    id: r.id,
    account: r.kind as ShopOwnKind,
    delta: Number(r.delta),
    balanceAfter: Number(r.balanceAfter),
    reason: r.reason,
    orderId: ref('order', r),
    refundId: ref('refund', r),
    payoutId: ref('payout', r),
    createdAt: r.createdAt,
  }));
  return pageOf(items, paging, Number(total));
}

export const shopPayoutsRefusals = refusals('FORBIDDEN');

export async function shopPayouts(ctx: ServiceContext, input: unknown): Promise<Page<PayoutView>> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopMoneyRead);
  const paging = parseInput(z.object(pageFields), input ?? {});
  const { ids, total } = await idPage(typedSql(ctx.em).selectFrom('Payout').where('shop', '=', shopId), paging, 'desc');
  const rows = ids.length === 0 ? [] : await payoutRows(ctx.em).where('p.id', 'in', ids).orderBy('p.id', 'desc').execute();
  return pageOf(rows, paging, total);
}

export const ReconciliationInput = z.object({ from: calendarDate, to: calendarDate }).strict().refine((r) => r.from <= r.to, { ...onceFieldsFit, message: 'from must not be after to', path: ['from'] });

export const reconciliationReportRefusals = refusals('FORBIDDEN', 'VALIDATION_FAILED');

/**
 * The platform's daily report (UTC days, `from`..`to` inclusive, at most 92 of them) beside the
 * check that the books balance. Every figure is a sum over the ledger or the orders of the day.
 */
export async function reconciliationReport(ctx: ServiceContext, input: unknown): Promise<ReconciliationView> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const { from, to } = parseInput(ReconciliationInput, input);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000);
  if (end.getTime() - start.getTime() > 92 * 86_400_000) throw validationError('The report covers at most 92 days', { problems: [{ field: 'to', message: 'The report covers at most 92 days from `from`' }] });
  const db = typedSql(ctx.em);
  const day = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`;

  const [books] = await db.selectFrom('Balance').select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), eb.lit(0)).as('sum')).where('currency', 'is not', null).execute();
  const unbalanced = await sql<{ n: string }>`select count(*) as n from (select transfer_id from ledger_entry where transfer_id is not null and created_at >= ${start} and created_at < ${end} group by transfer_id having sum(delta) <> 0 or count(*) <> 2) t`.execute(db);
  const balances = await db
    .selectFrom('Balance')
    .select((eb) => ['kind', eb.fn.sum<string>('amount').as('total')])
    .where('currency', 'is not', null)
    .groupBy('kind')
    .orderBy('kind')
    .execute();
  const movements = await db
    .selectFrom('LedgerEntry as l')
    .innerJoin('Balance as b', 'b.id', 'l.balance')
    .select((eb) => [day('l.createdAt').as('day'), 'b.kind', eb.fn.sum<string>('l.delta').as('total')])
    .where('b.currency', 'is not', null)
    .where('l.createdAt', '>=', start)
    .where('l.createdAt', '<', end)
    .groupBy([day('l.createdAt'), 'b.kind'])
    .execute();
  const paid = await db
    .selectFrom('Order')
    .select((eb) => [day('paidAt').as('day'), eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('total').as('amount'), eb.fn.sum<string>('commission').as('commission')])
    .where('paidAt', '>=', start)
    .where('paidAt', '<', end)
    .groupBy(day('paidAt'))
    .execute();
  const refunded = await db
    .selectFrom('Refund')
    .select((eb) => [day('completedAt').as('day'), eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('amount').as('amount'), eb.fn.sum<string>('commissionAmount').as('commission')])
    .where('completedAt', '>=', start)
    .where('completedAt', '<', end)
    .groupBy(day('completedAt'))
    .execute();
  const payouts = await db
    .selectFrom('Payout')
    .select((eb) => [day('createdAt').as('day'), eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('amount').as('amount')])
    .where('createdAt', '>=', start)
    .where('createdAt', '<', end)
    .groupBy(day('createdAt'))
    .execute();

  const captured = await db
    .selectFrom('Payment as p')
    .select((eb) => [day('p.capturedAt').as('day'), 'p.provider', eb.fn.sum<string>('p.capturedAmount').as('amount')])
    .where('p.provider', '<>', 'wallet')
    .where('p.capturedAt', '>=', start)
    .where('p.capturedAt', '<', end)
    .groupBy([day('p.capturedAt'), 'p.provider'])
    .execute();
  const gatewayRefunds = await db
    .selectFrom('PaymentRefund as r')
    .innerJoin('Payment as p', 'p.id', 'r.payment')
    .select((eb) => [day('r.updatedAt').as('day'), 'p.provider', eb.fn.sum<string>('r.amount').as('amount')])
    .where('r.status', '=', PaymentRefundStatus.Succeeded)
    .where('r.updatedAt', '>=', start)
    .where('r.updatedAt', '<', end)
    .groupBy([day('r.updatedAt'), 'p.provider'])
    .execute();
  const waitingPayments = await db
    .selectFrom('Payment as p')
    .select((eb) => [day('p.createdAt').as('day'), 'p.provider', eb.fn.sum<string>('p.amount').as('amount')])
    .where('p.provider', '<>', 'wallet')
    .where('p.status', 'in', [PaymentStatus.Pending, PaymentStatus.Authorized])
    .where('p.createdAt', '>=', start)
    .where('p.createdAt', '<', end)
    .groupBy([day('p.createdAt'), 'p.provider'])
    .execute();
  const waitingRefunds = await db
    .selectFrom('PaymentRefund as r')
    .innerJoin('Payment as p', 'p.id', 'r.payment')
    .select((eb) => [day('r.createdAt').as('day'), 'p.provider', eb.fn.sum<string>('r.amount').as('amount')])
    .where('r.status', '=', PaymentRefundStatus.Pending)
    .where('r.createdAt', '>=', start)
    .where('r.createdAt', '<', end)
    .groupBy([day('r.createdAt'), 'p.provider'])
    .execute();
  const providersOf = (d: string): ProviderDayView[] => {
    const sum = (rows: { day: string; provider: string; amount: string }[], provider: string) => rows.filter((r) => r.day === d && r.provider === provider).reduce((n, r) => n + Number(r.amount), 0);
    const names = [...new Set([captured, gatewayRefunds, waitingPayments, waitingRefunds].flat().filter((r) => r.day === d).map((r) => r.provider))].sort();
    return names.map((provider) => ({
      provider,
      captured: sum(captured, provider),
      refunded: sum(gatewayRefunds, provider),
      waiting: sum(waitingPayments, provider) + sum(waitingRefunds, provider),
    }));
  };

  const days: ReconciliationDayView[] = [];
  for (let t = start.getTime(); t < end.getTime(); t += 86_400_000) {
    const d = new Date(t).toISOString().slice(0, 10);
    const p = paid.find((r) => r.day === d);
    const r = refunded.find((x) => x.day === d);
    const o = payouts.find((x) => x.day === d);
    days.push({
      day: d,
      movements: movements.filter((m) => m.day === d).map((m) => ({ kind: m.kind, total: Number(m.total) })).sort((a, b) => a.kind.localeCompare(b.kind)),
      ordersPaid: Number(p?.n ?? 0),
      amountPaid: Number(p?.amount ?? 0),
      refundsCompleted: Number(r?.n ?? 0),
      amountRefunded: Number(r?.amount ?? 0),
      commissionEarned: Number(p?.commission ?? 0) - Number(r?.commission ?? 0),
      payoutsCreated: Number(o?.n ?? 0),
      amountPaidOut: Number(o?.amount ?? 0),
      providers: providersOf(d),
    });
  }
  const booksSum = Number(books.sum);
  return {
    booksSum,
    booksBalance: booksSum === 0 && Number(unbalanced.rows[0].n) === 0,
    unbalancedTransfers: Number(unbalanced.rows[0].n),
    balances: balances.map((b) => ({ kind: b.kind, total: Number(b.total) })),
    days,
  };
}

