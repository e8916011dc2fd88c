import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { OrderStatus } from '../../entities/order.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { objectType } from './object-type.js';
import { ShopRef } from '../../services/catalog/catalog-views.js';
import { ShippingAddressView } from '../../services/shipping/shipping-address.js';
import { OrderItemView, OrderView, ShipmentPartView, ShipmentView } from '../../services/orders/order-view.js';
import { PayloadType } from './payload.types.js';
import { OrderStatusEnum, RegionCodeEnum, ShopOrderSortEnum } from './enums.js';
import type { ShopOrderSort } from '../../services/orders/order.service.js';
import type { RegionCode } from '../../services/shipping/regions.js';
import { CheckoutPreviewItemView, CheckoutPreviewOrderView, CheckoutPreviewView } from '../../services/checkout/checkout-preview-view.js';
import { AccountStatsView, OrderCountsView } from '../../services/accounts/account-stats-view.js';
import { CartLineView, CartView, MergeCartView, MergedLineView } from '../../services/checkout/cart-view.js';
import { createShipmentRefusals } from '../../services/orders/shipment.service.js';
import { cancelOrderRefusals, confirmDeliveryRefusals } from '../../services/orders/order.service.js';
import { payCheckoutRefusals, payOrderRefusals } from '../../services/payments/payment.service.js';
import { InvoiceView, issueInvoiceRefusals } from '../../services/orders/invoice.service.js';
import { mergeCartRefusals, removeCartItemRefusals, setCartItemRefusals } from '../../services/checkout/cart.service.js';


// Made from the services' view schemas (object-type.ts): the view is the one description of these.
export const ShopSummary = objectType('ShopSummary', ShopRef);
export type ShopSummary = ShopRef;

export const CartLine = objectType('CartLine', CartLineView);
export type CartLine = CartLineView;

export const Cart = objectType('Cart', CartView);
export type Cart = CartView;

export const OrderItem = objectType('OrderItem', OrderItemView);
export type OrderItem = OrderItemView;

export const ShipmentPart = objectType('ShipmentPart', ShipmentPartView);

export const Shipment = objectType('Shipment', ShipmentView);
export type Shipment = ShipmentView;

export const ShippingAddress = objectType('ShippingAddress', ShippingAddressView);
export type ShippingAddress = ShippingAddressView;

export const Order = objectType('Order', OrderView);
export type Order = OrderView;

export const CheckoutPreviewItem = objectType('CheckoutPreviewItem', CheckoutPreviewItemView);
export const CheckoutPreviewOrder = objectType('CheckoutPreviewOrder', CheckoutPreviewOrderView);
export const CheckoutPreview = objectType('CheckoutPreview', CheckoutPreviewView);
export type CheckoutPreview = CheckoutPreviewView;

@ObjectType()
export class OrderPage extends PageType(Order) {}

export const Invoice = objectType('Invoice', InvoiceView);
export type Invoice = InvoiceView;

export const OrderCounts = objectType('OrderCounts', OrderCountsView, { description: "The customer's orders in each state" });
export const AccountStats = objectType('AccountStats', AccountStatsView);

@InputType({ description: 'Units of one item of an order (shipments, refunds and returns)' })
export class OrderItemQuantityInput {
  @Field(() => Int) orderItemId!: number;
  @Field(() => Int) quantity!: number;
}

@InputType()
export class CreateShipmentInput {
  @Field(() => Int) orderId!: number;
  @Field({ description: 'Code of an active shipping company (see shippingCompanies)' }) companyCode!: string;
  @Field() trackingNumber!: string;
  @Field(() => [OrderItemQuantityInput], { nullable: true, description: 'Absent: everything not yet shipped' }) items?: OrderItemQuantityInput[];
}

@InputType()
export class IssueInvoiceInput {
  @Field(() => Int) orderId!: number;
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) taxNumber?: string;
}

@InputType()
export class SetCartItemInput {
  @Field(() => Int) skuId!: number;
  @Field(() => Int, { description: '0 removes the line' }) quantity!: number;
}

@InputType()
export class RemoveCartItemInput {
  @Field(() => Int) skuId!: number;
}

@InputType()
export class PayOrderInput {
  @Field(() => Int) orderId!: number;
  @Field(() => String, { nullable: true, description: 'The same key replays the first committed answer (retry safely)' }) idempotencyKey?: string | null;
}

@InputType()
export class GuestCartLineInput {
  @Field(() => Int) skuId!: number;
  @Field(() => Int) quantity!: number;
}

@InputType()
export class MergeCartInput {
  @Field(() => [GuestCartLineInput], { description: 'The guest cart, each SKU once' }) items!: GuestCartLineInput[];
  @Field(() => String, { nullable: true, description: 'The same key replays the first committed answer (retry safely)' }) idempotencyKey?: string | null;
}

export const MergedCartLine = objectType('MergedCartLine', MergedLineView);
export type MergedCartLine = MergedLineView;

export const MergedCart = objectType('MergedCart', MergeCartView);
export type MergedCart = MergeCartView;

@InputType()
export class PayCheckoutInput {
  @Field(() => [Int], { description: 'The orders of one checkout (each once)' }) orderIds!: number[];
  @Field(() => String, { nullable: true, description: 'The same key replays the first committed answer (retry safely)' }) idempotencyKey?: string | null;
}

@InputType()
export class CancelOrderInput {
  @Field(() => Int) orderId!: number;
}

@InputType()
export class ConfirmDeliveryInput {
  @Field(() => Int) orderId!: number;
}

@InputType()
export class ShippingAddressInput {
  @Field() recipient!: string;
  @Field() phone!: string;
  @Field(() => RegionCodeEnum, { description: 'Prices the freight' }) region!: RegionCode;
  @Field() address!: string;
}

@ArgsType()
export class OrderListArgs extends PageArgs {
  @Field(() => OrderStatusEnum, { nullable: true }) status?: OrderStatus | null;
}

@ArgsType()
export class ShopOrderListArgs extends OrderListArgs {
  @Field(() => ShopOrderSortEnum, { nullable: true, description: 'Default: newest first' }) sort?: ShopOrderSort | null;
}

export const SetCartItemPayload = PayloadType('SetCartItem', 'cart', () => Cart, 'The cart after the change', setCartItemRefusals);
export const RemoveCartItemPayload = PayloadType('RemoveCartItem', 'cart', () => Cart, 'The cart after the change', removeCartItemRefusals);
export const PayOrderPayload = PayloadType('PayOrder', 'order', () => Order, 'The order, paid (or its seat paid: AWAITING_GROUP)', payOrderRefusals);
export const MergeCartPayload = PayloadType('MergeCart', 'merged', () => MergedCart, 'The cart after the merge, and each guest line\'s outcome', mergeCartRefusals);
export const PayCheckoutPayload = PayloadType('PayCheckout', 'orders', () => [Order], 'Every order, paid (group seats AWAITING_GROUP); null when any was refused and none was paid', payCheckoutRefusals);
export const CancelOrderPayload = PayloadType('CancelOrder', 'order', () => Order, 'The order, cancelled', cancelOrderRefusals);
export const ConfirmDeliveryPayload = PayloadType('ConfirmDelivery', 'order', () => Order, 'The order, delivered', confirmDeliveryRefusals);
export const CreateShipmentPayload = PayloadType('CreateShipment', 'order', () => Order, 'The order with its new shipment', createShipmentRefusals);
export const IssueInvoicePayload = PayloadType('IssueInvoice', 'invoice', () => Invoice, 'The issued invoice', issueInvoiceRefusals);
