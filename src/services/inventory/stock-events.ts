import { EventTypes } from '../events/event-types.js';
import type { ServiceContext } from '../../shared/context.js';
import { emit } from '../../shared/transaction.js';

export interface StockDecrement {
  skuId: number;
  productId: number;
  shopId: number;
  /** Stock after the decrement (from `UPDATE ... RETURNING stock`). */
  stock: number;
  /** How much was taken by this decrement. */
  quantity: number;
}

/**
 * Emits `stock.low` for each SKU whose stock just fell below STOCK_LOW_THRESHOLD: once, when it
 * crosses, not on every later sale. Call it in the transaction that decremented the stock.
 */
export function emitStockLow(tx: ServiceContext, decrements: StockDecrement[]): void {
  const threshold = tx.config.stockLowThreshold;
  for (const d of decrements) {
    if (d.stock < threshold && d.stock + d.quantity >= threshold) {
      emit(tx, {
        type: EventTypes.STOCK_LOW,
        shopIds: [d.shopId],
        customerId: null,
        payload: { skuId: d.skuId, productId: d.productId, stock: d.stock, threshold },
      });
    }
  }
}
