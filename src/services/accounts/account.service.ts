import { BalanceKind } from '../../entities/balance.entity.js';
import { BASE_CURRENCY } from '../../currency.js';
import { typedSql } from '../../db/typed-sql.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { balancesOf } from './ledger.service.js';
import { orderCountOf, type AccountStatsView, type OrderCountsView } from './account-stats-view.js';

/** The customer's account summary: the only public surface for balances. */
export async function myStats(ctx: ServiceContext): Promise<AccountStatsView> {
  const customer = requireCustomer(ctx);
  const [balances, counts] = await Promise.all([
    balancesOf(ctx.em, customer.userId),
    typedSql(ctx.em)
      .selectFrom('Order')
      .select((eb) => ['status', eb.cast<number>(eb.fn.countAll(), 'integer').as('n')])
      .where('customer', '=', customer.userId)
      .groupBy('status')
      .execute(),
  ]);
  const amount = (kind: BalanceKind) => balances.find((b) => b.kind === kind)?.amount ?? 0;
  const orders = Object.fromEntries(Object.values(orderCountOf).map((key) => [key, 0])) as OrderCountsView;
  for (const c of counts) orders[orderCountOf[c.status]] = c.n;
  return {
    currency: BASE_CURRENCY.code,
    available: amount(BalanceKind.Available),
    frozen: amount(BalanceKind.Frozen),
    points: amount(BalanceKind.Points),
    orders,
  };
}
