import { z } from 'zod';
import { LEDGER_REASONS } from '../../entities/ledger-entry.entity.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { PayoutStatus } from '../../entities/settlement.entity.js';
import { count, id, money, named, page, timestamp } from './common.js';

export const ShopBalances = named(
  'ShopBalances',
  z.strictObject({ currency: z.string(), pending: money, available: money, inTransit: money, debt: z.number().int().max(0) }),
);

export const StatementEntry = named(
  'StatementEntry',
  z.strictObject({
    id,
    account: z.enum([BalanceKind.ShopPending, BalanceKind.ShopAvailable, BalanceKind.ShopInTransit, BalanceKind.ShopDebt]),
    delta: z.number().int(),
    balanceAfter: z.number().int(),
    reason: z.enum(LEDGER_REASONS),
    orderId: id.nullable(),
    refundId: id.nullable(),
    payoutId: id.nullable(),
    createdAt: timestamp,
  }),
);
export const StatementPage = named('StatementPage', page(StatementEntry));

export const Payout = named(
  'Payout',
  z.strictObject({
    id,
    batchId: id,
    shopId: id,
    shopName: z.string(),
    amount: money,
    status: z.enum(PayoutStatus),
    failureReason: z.string().nullable(),
    failedAfterPaid: z.boolean(),
    createdAt: timestamp,
    settledAt: timestamp.nullable(),
  }),
);
export const PayoutPage = named('PayoutPage', page(Payout));

export const PayoutBatch = named(
  'PayoutBatch',
  z.strictObject({ id, threshold: money, createdAt: timestamp, total: money, payouts: z.array(Payout) }),
);
export const PayoutBatchList = named(
  'PayoutBatchList',
  z.strictObject({ items: z.array(z.strictObject({ id, threshold: money, createdAt: timestamp, payoutCount: count, total: money })) }),
);
export const PayoutBatchCsv = named('PayoutBatchCsv', z.string().describe('payout_id,shop_id,shop_slug,shop_name,amount,currency,status; CRLF lines'));

export const CommissionRate = named(
  'CommissionRate',
  z.strictObject({ id, shopId: id, categoryId: id.nullable(), rateBp: z.number().int().min(0).max(10_000), validFrom: timestamp, validUntil: timestamp.nullable() }),
);
export const CommissionRateList = named('CommissionRateList', z.strictObject({ items: z.array(CommissionRate) }));

const kindTotal = z.strictObject({ kind: z.enum(BalanceKind), total: z.number().int() });
export const Reconciliation = named(
  'Reconciliation',
  z.strictObject({
    booksSum: z.number().int(),
    booksBalance: z.boolean(),
    unbalancedTransfers: count,
    balances: z.array(kindTotal),
    days: z.array(
      z.strictObject({
        day: z.iso.date(),
        movements: z.array(kindTotal),
        ordersPaid: count,
        amountPaid: money,
        refundsCompleted: count,
        amountRefunded: money,
        commissionEarned: z.number().int(),
        payoutsCreated: count,
        amountPaidOut: money,
        providers: z.array(z.strictObject({ provider: z.string(), captured: money, refunded: money, waiting: money })),
      }),
    ),
  }),
);
