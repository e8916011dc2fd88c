/**
 * How much a refund pays back. Pure functions, so the rule is tested on its own.
 *
 * The order's discount is shared over its items in proportion to their amounts (largest remainder,
 * ties to the earlier item), so the shares add up to the discount exactly. Refunding `q` of an item's
 * `n` units pays `unit_price x q - ceil(share x q / n)`: several partial refunds of one item never add
 * up to more than the item's paid amount (`amount - share`), and all of them together reach it.
 */
export interface PricedItem {
  id: number;
  unitPrice: number;
  quantity: number;
  amount: number;
}

export function discountShares(items: PricedItem[], discount: number): Map<number, number> {
  const total = items.reduce((sum, i) => sum + i.amount, 0);
  const shares = new Map<number, number>();
  if (discount <= 0 || total <= 0) {
    for (const i of items) shares.set(i.id, 0);
    return shares;
  }
  // BigInt: discount x amount can pass 2^53 for large orders.
  const exact = items.map((i) => {
    const product = BigInt(discount) * BigInt(i.amount);
    return { id: i.id, floor: Number(product / BigInt(total)), rest: Number(product % BigInt(total)) };
  });
  let left = discount - exact.reduce((sum, e) => sum + e.floor, 0);
  for (const e of exact) shares.set(e.id, e.floor);
  for (const e of [...exact].sort((a, b) => b.rest - a.rest || a.id - b.id)) {
    if (left-- <= 0) break;
    shares.set(e.id, shares.get(e.id)! + 1);
  }
  return shares;
}

export function itemRefundAmount(item: PricedItem, share: number, quantity: number): number {
  const withheld = (BigInt(share) * BigInt(quantity) + BigInt(item.quantity) - 1n) / BigInt(item.quantity);
  return item.unitPrice * quantity - Number(withheld);
}
