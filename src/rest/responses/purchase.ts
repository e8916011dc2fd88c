import { z } from 'zod';
import { CANCEL_REASONS } from '../../entities/order.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { count, id, money, named, page, ShippingAddress, ShopRef, timestamp } from './common.js';

export const CartLine = named(
  'CartLine',
  z.strictObject({
    skuId: id,
    skuName: z.string(),
    productId: id,
    productName: z.string(),
    imageUrl: z.string().optional(),
    unitPrice: money,
    quantity: count,
    lineTotal: money,
    stock: count,
    shop: ShopRef,
    available: z.boolean(),
  }),
);
export const Cart = named('Cart', z.strictObject({ lines: z.array(CartLine), itemCount: count, total: money }));

export const OrderItem = named(
  'OrderItem',
  z.strictObject({
    id,
    productId: id,
    skuId: id,
    productName: z.string(),
    skuName: z.string(),
    unitPrice: money,
    quantity: count,
    amount: money,
    pricing: z.enum(ItemPricing),
    shippedQuantity: count,
    flashSaleItemId: id.optional(),
    refundQuantity: count,
    reviewed: z.boolean(),
  }),
);

export const Shipment = named(
  'Shipment',
  z.strictObject({
    id,
    companyCode: z.string(),
    carrier: z.string(),
    trackingNumber: z.string(),
    createdAt: timestamp,
    items: z.array(z.strictObject({ orderItemId: id, quantity: count })).optional(),
  }),
);

export const Order = named(
  'Order',
  z.strictObject({
    id,
    customerId: id,
    shop: ShopRef,
    status: z.enum(OrderStatus),
    currency: z.string(),
    itemsTotal: money,
    discount: money,
    couponId: id.optional(),
    freightFee: money,
    total: money,
    shippingAddress: ShippingAddress,
    createdAt: timestamp,
    paidAt: timestamp.optional(),
    shippedAt: timestamp.optional(),
    deliveredAt: timestamp.optional(),
    completedAt: timestamp.optional(),
    cancelledAt: timestamp.optional(),
    cancelReason: z.enum(CANCEL_REASONS).optional(),
    groupId: id.optional(),
    groupPrice: money.optional(),
    items: z.array(OrderItem),
    shipments: z.array(Shipment),
  }),
);
export const OrderPage = named('OrderPage', page(Order));
export const CheckoutResult = named('CheckoutResult', z.strictObject({ orders: z.array(Order) }));
export const MergedCart = named(
  'MergedCart',
  z.strictObject({
    cart: Cart,
    lines: z.array(z.strictObject({ skuId: id, requested: count, inCart: count, outcome: z.enum(['merged', 'capped', 'unavailable', 'not_found']) })),
  }),
);
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

export const Invoice = named(
  'Invoice',
  z.strictObject({
    orderId: id,
    status: z.enum(['not_issued', 'issued']),
    invoiceNo: z.string().nullable(),
    title: z.string().optional(),
    taxNumber: z.string().optional(),
    amount: money,
    issuedAt: timestamp.optional(),
  }),
);

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
