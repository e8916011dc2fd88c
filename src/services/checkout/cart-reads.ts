import type { EntityManager } from '@mikro-orm/postgresql';
import { checkoutCarts } from './cart.repository.js';
import type { CheckoutCart } from './order-writer.js';

export interface CartRequest {
  em: EntityManager;
  customerId: number;
  region: string;
}

/**
 * The carts of several customers, each for its shipping region, in one statement (exported for
 * tests). One row per request, by position: a customer may be asked for twice, for two regions.
 */
export async function readCarts(requests: CartRequest[]): Promise<CheckoutCart[]> {
  const rows = await checkoutCarts.run(requests[0].em, {}, { customerIds: requests.map((r) => r.customerId), regions: requests.map((r) => r.region) });
  const byPosition = new Map(rows.map((r) => [Number(r.n), r]));
  return requests.map((_, i) => {
    const row = byPosition.get(i + 1)!;
    return {
      lines: row.lines.map((r) => ({
        skuId: r.skuId,
        skuName: r.skuName,
        productId: r.productId,
        productName: r.productName,
        shopId: r.shopId,
        unitPrice: r.price,
        quantity: r.quantity,
        status: r.status,
      })),
      flashSaleOffers: row.flashSaleOffers,
      freightTerms: row.freightTerms,
    };
  });
}
