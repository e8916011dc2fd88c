import type { Router } from 'express';
import { z } from 'zod';
import * as payouts from '../services/settlement/payouts.js';
import * as statements from '../services/settlement/statements.js';
import * as commissions from '../services/settlement/commissions.js';
import { route, Reply, TextReply } from './route.js';
import { Permission } from '../shared/permissions.js';
import { PageQuery } from '../shared/pagination.js';
import {
  CommissionRate, CommissionRateList, PayoutBatch, PayoutBatchCsv, PayoutBatchSummaryPage, Payout, PayoutPage, Reconciliation, ShopBalances, StatementPage,
} from './responses/settlement.js';

const tag = 'Settlement';

/** Bodies and queries as the services validate them (documented from the same schemas). */
const BatchBody = z.object({ threshold: z.number().int().min(1) });
const StatementQuery = z.object({
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  account: z.enum(['shop_pending', 'shop_available', 'shop_in_transit', 'shop_debt']).optional(),
});

/** A shop's money (its operators) and the platform's payouts, commissions and books (admins). */
export function settlementRoutes(router: Router) {
  route(router, '/merchant/balances', {
    get: { doc: { tag, summary: "The shop's balances", permission: Permission.ShopMoneyRead, response: ShopBalances, errors: statements.shopBalancesRefusals }, handle: ({ ctx }) => statements.shopBalances(ctx) },
  });
  route(router, '/merchant/statement', {
    get: {
      doc: { tag, summary: "The shop's statement: every entry of its accounts, newest first", permission: Permission.ShopMoneyRead, query: StatementQuery, response: StatementPage, errors: statements.shopStatementRefusals },
      handle: ({ ctx, query }) => statements.shopStatement(ctx, query),
    },
  });
  route(router, '/merchant/payouts', {
    get: { doc: { tag, summary: "The shop's payouts", permission: Permission.ShopMoneyRead, query: PageQuery, response: PayoutPage, errors: statements.shopPayoutsRefusals }, handle: ({ ctx, query }) => statements.shopPayouts(ctx, query) },
  });

  route(router, '/admin/payout-batches', {
    get: {
      doc: { tag, summary: 'The payout batches, newest first', permission: Permission.PlatformMoneyManage, query: PageQuery, response: PayoutBatchSummaryPage, errors: payouts.listPayoutBatchesRefusals },
      handle: ({ ctx, query }) => payouts.listPayoutBatches(ctx, query),
    },
    post: {
      doc: { tag, summary: 'Pay out every shop whose available balance reached the threshold', permission: Permission.PlatformMoneyManage, body: BatchBody, response: PayoutBatch, status: 201, errors: payouts.createPayoutBatchRefusals },
      handle: async ({ ctx, body }) => new Reply(201, await payouts.createPayoutBatch(ctx, body)),
    },
  });
  route(router, '/admin/payout-batches/:batchId', {
    get: { doc: { tag, summary: 'One payout batch with its payouts', permission: Permission.PlatformMoneyManage, response: PayoutBatch, errors: payouts.getPayoutBatchRefusals }, handle: ({ ctx, params }) => payouts.getPayoutBatch(ctx, params) },
  });
  route(router, '/admin/payout-batches/:batchId/export', {
    get: {
      doc: { tag, summary: "The batch's file for the bank (CSV)", permission: Permission.PlatformMoneyManage, response: PayoutBatchCsv, contentType: 'text/csv', errors: payouts.exportPayoutBatchCsvRefusals },
      handle: async ({ ctx, params }) =>
        new TextReply('text/csv; charset=utf-8', await payouts.exportPayoutBatchCsv(ctx, params), { 'Content-Disposition': `attachment; filename="payout-batch-${params.batchId}.csv"` }),
    },
  });
  route(router, '/admin/payouts/:payoutId/settle', {
    post: {
      doc: { tag, summary: "The bank's answer for a payout: paid or failed", permission: Permission.PlatformMoneyManage, body: payouts.SettlePayoutBody, response: Payout, errors: payouts.settlePayoutRefusals },
      handle: ({ ctx, params, body }) => payouts.settlePayout(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/admin/shops/:shopId/commission-rates', {
    get: { doc: { tag, summary: "A shop's commission rates", permission: Permission.PlatformMoneyManage, response: CommissionRateList, errors: commissions.listCommissionRatesRefusals }, handle: async ({ ctx, params }) => ({ items: await commissions.listCommissionRates(ctx, params) }) },
    post: {
      doc: { tag, summary: 'Add a commission rate for a shop (a category, or the rest)', permission: Permission.PlatformMoneyManage, body: commissions.CommissionRateInput, response: CommissionRate, status: 201, errors: commissions.addCommissionRateRefusals },
      handle: async ({ ctx, params, body }) => new Reply(201, await commissions.addCommissionRate(ctx, { ...(body as object), ...params })),
    },
  });
  route(router, '/admin/reconciliation', {
    get: {
      doc: { tag, summary: 'Daily totals beside the check that the books balance', permission: Permission.PlatformMoneyManage, query: statements.ReconciliationInput, response: Reconciliation, errors: statements.reconciliationReportRefusals },
      handle: ({ ctx, query }) => statements.reconciliationReport(ctx, query),
    },
  });
}
