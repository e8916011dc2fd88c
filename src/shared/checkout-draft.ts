import type { ItemPricing } from '../entities/order-item.entity.js';

// What a checkout works on before anything is written: the cart lines it read and one draft order
// per shop, refined by the pricing steps (flash sale, coupons, group buying, freight).

/** A cart line as checkout reads it, with the product's current standard price. */
export interface CheckoutLine {
  skuId: number;
  skuName: string;
  productId: number;
  productName: string;
  shopId: number;
  unitPrice: number;
  quantity: number;
}

export interface DraftItem {
  skuId: number;
  skuName: string;
  productId: number;
  productName: string;
  unitPrice: number;
  quantity: number;
  pricing: ItemPricing;
  /** The flash-sale activity item behind a `flash_sale` item. */
  flashSaleItemId?: number;
}

/** One shop's order before it is written. Pricing steps refine it; nothing is trusted from the client. */
export interface DraftOrder {
  shopId: number;
  items: DraftItem[];
  discount: number;
  /** Set by the coupon step (coupon-checkout.ts). */
  couponId?: number;
  /** Group-buying order: the group it takes a seat in and the seat price (snapshotted on the order). */
  group?: { id: number; price: number };
}

/** What a draft order comes to: its items at their snapshot prices, less its discount, plus its freight. */
export function orderTotals(draft: DraftOrder, freightFee: number): { itemsTotal: number; discount: number; freightFee: number; total: number } {
  const itemsTotal = draft.items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  return { itemsTotal, discount: draft.discount, freightFee, total: itemsTotal - draft.discount + freightFee };
}
