import { ItemPricing } from '../../entities/order-item.entity.js';
import { z } from '../../shared/validate.js';
import { count, id, money } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';

export const CheckoutPreviewItemView = z
  .strictObject({
    skuId: id,
    skuName: z.string(),
    productId: id,
    productName: z.string(),
    unitPrice: money,
    quantity: count,
    pricing: z.enum(ItemPricing),
    // The flash-sale activity item behind a `flash_sale` item.
    flashSaleItemId: id.optional(),
  })
  .describe('An item a checkout would place, priced as the checkout prices it');
export type CheckoutPreviewItemView = z.infer<typeof CheckoutPreviewItemView>;

export const CheckoutPreviewOrderView = z
  .strictObject({
    shop: ShopRef,
    items: z.array(CheckoutPreviewItemView),
    itemsTotal: money,
    discount: money,
    couponId: id.optional(),
    freightFee: money,
    total: money,
  })
  .describe('One shop order a checkout would place now');
export type CheckoutPreviewOrderView = z.infer<typeof CheckoutPreviewOrderView>;

/** A checkout priced without placing it: REST publishes this schema and GraphQL's type is made from it. */
export const CheckoutPreviewView = z
  .strictObject({
    currency: z.string(),
    orders: z.array(CheckoutPreviewOrderView),
    // What the customer would pay over all shop orders.
    total: money,
  })
  .describe('What checking the cart out now would place, priced by the server; nothing is written or reserved');
export type CheckoutPreviewView = z.infer<typeof CheckoutPreviewView>;
