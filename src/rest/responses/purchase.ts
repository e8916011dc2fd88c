import { z } from 'zod';
import { named, page } from './common.js';
import { OrderItemView, OrderView, ShipmentView } from '../../services/orders/order-view.js';
import { InvoiceView } from '../../services/orders/invoice.service.js';
import { CheckoutPreviewView } from '../../services/checkout/checkout-preview-view.js';
import { OperationsTodayView } from '../../services/orders/operations-view.js';
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

export const CheckoutPreview = named('CheckoutPreview', CheckoutPreviewView);

export const Invoice = named('Invoice', InvoiceView);

export const OperationsToday = named('OperationsToday', OperationsTodayView);
