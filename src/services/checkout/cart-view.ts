import { z } from '../../shared/validate.js';
import { count, id, money } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';

/** A line of the customer's cart, with its SKU's current price and stock. */
export const CartLineView = z.strictObject({
  skuId: id,
  skuName: z.string(),
  productId: id,
  productName: z.string(),
  imageUrl: z.string().optional(),
  unitPrice: money,
  quantity: count,
  lineTotal: money,
  // The cart may hold more than the stock: checkout refuses it, the cart shows why.
  stock: count.describe('Current stock of the SKU; checkout refuses more'),
  shop: ShopRef,
  // Unpublished after being added: kept in the cart, refused at checkout.
  available: z.boolean().describe('False when the product is no longer on sale'),
});
export type CartLineView = z.infer<typeof CartLineView>;

/** The customer's cart: REST publishes this schema and GraphQL's type is made from it. */
export const CartView = z.strictObject({ lines: z.array(CartLineView), itemCount: count, total: money });
export type CartView = z.infer<typeof CartView>;

/** What became of one guest line. */
export enum MergeOutcome {
  Merged = 'merged',
  /** The sum went past the stock: the line holds the stock (or one unit when none is left). */
  Capped = 'capped',
  /** The product is not on sale any more. */
  Unavailable = 'unavailable',
  /** No such SKU (deleted since it was added). */
  NotFound = 'not_found',
}

export const MergedLineView = z
  .strictObject({
    skuId: id,
    requested: count.describe('What the guest cart held'),
    inCart: count.describe('The quantity in the cart now (0: not added)'),
    outcome: z.enum(MergeOutcome),
  })
  .describe('What became of one line of the guest cart');
export type MergedLineView = z.infer<typeof MergedLineView>;

/** The cart after a guest cart was merged into it at sign-in, and each guest line's outcome. */
export const MergeCartView = z.strictObject({ cart: CartView, lines: z.array(MergedLineView) });
export type MergeCartView = z.infer<typeof MergeCartView>;
