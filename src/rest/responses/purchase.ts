import { z } from 'zod';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { count, id, money, named, page, ShopRef, timestamp } from './common.js';
import { OrderItemView, OrderView, ShipmentView } from '../../services/orders/order-view.js';
import { InvoiceView } from '../../services/orders/invoice.service.js';
import { CartLineView, CartView, MergeCartView } from '../../services/checkout/cart-view.js';

export const CartLine = named('CartLine', CartLineView);
export const Cart = named('Cart', CartView);

export const OrderItem = named('OrderItem', OrderItemView);

export const Shipment = named('Shipment', ShipmentView);

export const Order = named('Order', OrderView);
export const OrderPage = named('OrderPage', page(Order));
export const CheckoutResult = named('CheckoutResult', z.strictObject({ orders: z.array(Order) }));
export const MergedCart = named('MergedCart', MergeCartView);
export const PaidCheckout = named('PaidCheckout', z.strictObject({ orders: z.array(Order) }));

export const CheckoutPreview = named(
  'CheckoutPreview',
  z.strictObject({
    currency: z.string(),
    orders: z.array(
      z.strictObject({
        shop: ShopRef,
        items: z.array(
          z.strictObject({
            skuId: id,
            skuName: z.string(),
            productId: id,
            productName: z.string(),
            unitPrice: money,
            quantity: count,
            pricing: z.enum(ItemPricing),
            flashSaleItemId: id.optional(),
          }),
        ),
        itemsTotal: money,
        discount: money,
        couponId: id.optional(),
        freightFee: money,
        total: money,
      }),
    ),
    total: money,
  }),
);

export const Invoice = named('Invoice', InvoiceView);

export const OperationsToday = named(
  'OperationsToday',
  z.strictObject({
    shopId: id.nullable(),
    timeZone: z.string(),
    since: timestamp,
    currency: z.string(),
    ordersPlaced: count,
    ordersPaid: count,
    paidAmount: money,
    ordersCancelled: count,
    awaitingShipment: count,
    refundsRequested: count,
    refundsOpen: count,
  }),
);
