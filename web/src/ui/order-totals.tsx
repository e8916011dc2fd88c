import { Money } from '../money/currency-context';

/** An order's amounts as the server computed them: items, coupon discount, freight, total. */
export function OrderTotals({ order }: { order: { itemsTotal: number; discount: number; freightFee: number; total: number } }) {
  return (
    <dl className="totals">
      <dt>Items</dt>
      <dd>
        <Money amount={order.itemsTotal} />
      </dd>
      <dt>Coupon</dt>
      <dd>
        −<Money amount={order.discount} />
      </dd>
      <dt>Freight</dt>
      <dd>
        <Money amount={order.freightFee} />
      </dd>
      <dt>Total</dt>
      <dd>
        <Money amount={order.total} className="money price-now" />
      </dd>
    </dl>
  );
}
