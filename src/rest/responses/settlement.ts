import { z } from 'zod';
import { ShopBalancesView, StatementEntryView } from '../../services/settlement/statements.js';
import { PayoutBatchSummaryView, PayoutBatchView, PayoutView } from '../../services/settlement/payouts.js';
import { ReconciliationView } from '../../services/settlement/reconciliation-view.js';
import { CommissionRateView } from '../../services/settlement/commissions.js';
import { named, page } from './common.js';

export const ShopBalances = named('ShopBalances', ShopBalancesView);

export const StatementEntry = named('StatementEntry', StatementEntryView);
export const StatementPage = named('StatementPage', page(StatementEntry));

export const Payout = named('Payout', PayoutView);
export const PayoutPage = named('PayoutPage', page(Payout));

export const PayoutBatch = named('PayoutBatch', PayoutBatchView);
export const PayoutBatchSummary = named('PayoutBatchSummary', PayoutBatchSummaryView);
export const PayoutBatchSummaryPage = named('PayoutBatchSummaryPage', page(PayoutBatchSummary));
export const PayoutBatchCsv = named('PayoutBatchCsv', z.string().describe('payout_id,shop_id,shop_slug,shop_name,amount,currency,status; CRLF lines'));

export const CommissionRate = named('CommissionRate', CommissionRateView);
export const CommissionRateList = named('CommissionRateList', z.strictObject({ items: z.array(CommissionRate) }));

export const Reconciliation = named('Reconciliation', ReconciliationView);
