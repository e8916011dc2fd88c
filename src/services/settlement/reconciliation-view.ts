import { BalanceKind } from '../../entities/balance.entity.js';
import { z } from '../../shared/validate.js';
import { count, money } from '../../shared/view-fields.js';

/**
 * The platform's daily report beside the check that the books balance (statements.ts,
 * `reconciliationReport`): REST publishes these schemas and GraphQL's types are made from them.
 */

/** A sum per account kind (money kinds only): a movement may be negative, so no lower bound. */
export const KindTotalView = z.strictObject({ kind: z.enum(BalanceKind), total: z.number().int() });
export type KindTotalView = z.infer<typeof KindTotalView>;

export const ProviderDayView = z
  .strictObject({
    provider: z.string().describe('sandbox, stripe, alipay'),
    captured: money,
    refunded: money,
    waiting: money,
  })
  .describe("A payment gateway's day: captured, confirmed refunded, and what of the day's payments and refunds still waits on it");
export type ProviderDayView = z.infer<typeof ProviderDayView>;

export const ReconciliationDayView = z.strictObject({
  day: z.iso.date().describe('UTC day, YYYY-MM-DD'),
  movements: z.array(KindTotalView).describe("Sum of the day's entries per account kind"),
  ordersPaid: count,
  amountPaid: money,
  refundsCompleted: count,
  amountRefunded: money,
  // Commission earned less commission given back by refunds: negative on a day of more refunds.
  commissionEarned: z.number().int(),
  payoutsCreated: count,
  amountPaidOut: money,
  // What each gateway captured that day, confirmed refunded that day, and what of the day's payments and refunds waits on it now.
  providers: z.array(ProviderDayView).describe('Per payment gateway (not the wallet)'),
});
export type ReconciliationDayView = z.infer<typeof ReconciliationDayView>;

export const ReconciliationView = z.strictObject({
  booksSum: z.number().int().describe('Sum over every money account: zero when the books balance'),
  booksBalance: z.boolean(),
  // Transfers whose two entries do not cancel out (none when the books are whole).
  unbalancedTransfers: count,
  // Balances now, per account kind.
  balances: z.array(KindTotalView),
  days: z.array(ReconciliationDayView),
});
export type ReconciliationView = z.infer<typeof ReconciliationView>;
