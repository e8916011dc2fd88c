import { OrderStatus } from '../../entities/order.entity.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { BASE_CURRENCY } from '../../currency.js';
import { typedSql } from '../../db/typed-sql.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { balancesOf } from './ledger.service.js';

export interface AccountStats {
  currency: string;
  /** Minor units of the base currency. */
  available: number;
  frozen: number;
  points: number;
  orders: Record<OrderStatus, number>;
}

/** The customer's account summary: the only public surface for balances. */
export async function myStats(ctx: ServiceContext): Promise<AccountStats> {
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
  const orders = Object.fromEntries(Object.values(OrderStatus).map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const c of counts) orders[c.status] = c.n;
  return {
    currency: BASE_CURRENCY.code,
    available: amount(BalanceKind.Available),
    frozen: amount(BalanceKind.Frozen),
    points: amount(BalanceKind.Points),
    orders,
  };
}
