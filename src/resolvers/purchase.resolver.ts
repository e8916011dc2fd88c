import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import * as cart from '../services/checkout/cart.service.js';
import { checkout, previewCheckout } from '../services/checkout/checkout.service.js';
import * as orders from '../services/orders/order.service.js';
import { createShipment } from '../services/orders/shipment.service.js';
import { getMyInvoice, issueInvoice } from '../services/orders/invoice.service.js';
import { myStats } from '../services/accounts/account.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { CouponChoiceInput } from './types/coupon.types.js';
import {
  AccountStats, Cart, CheckoutPreview, Invoice, InvoiceInput, Order, OrderItem, OrderListArgs, OrderPage, ShipmentInput, ShippingAddressInput,
} from './types/order.types.js';
import { ProductType } from './types/catalog.types.js';
import type { OrderItemView } from '../services/orders/order-view.js';
import { GroupBuyIntentInput } from './types/group-buy.types.js';

@Resolver()
export class PurchaseResolver {
  @Query(() => Cart, { description: "The signed-in customer's cart" })
  cart(@Ctx() { ctx }: GraphQLContext) {
    return cart.getCart(ctx);
  }

  @Mutation(() => Cart, { description: 'Set the quantity of a SKU in the cart (0 removes it)' })
  setCartItem(@Arg('skuId', () => Int) skuId: number, @Arg('quantity', () => Int) quantity: number, @Ctx() { ctx }: GraphQLContext) {
    return cart.setCartItem(ctx, { skuId, quantity });
  }

  @Mutation(() => Cart)
  removeCartItem(@Arg('skuId', () => Int) skuId: number, @Ctx() { ctx }: GraphQLContext) {
    return cart.removeCartItem(ctx, { skuId });
  }

  @Mutation(() => [Order], {
    description: 'One order per shop in the cart, or with groupBuy one group-buying order (the cart is not used), shipped to one address. The same idempotencyKey replays the first answer.',
  })
  checkout(
    @Arg('shippingAddress', () => ShippingAddressInput) shippingAddress: ShippingAddressInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null | undefined,
    @Arg('coupons', () => [CouponChoiceInput], { nullable: true, description: 'At most one owned coupon per shop order' }) coupons: CouponChoiceInput[] | null | undefined,
    @Arg('groupBuy', () => GroupBuyIntentInput, { nullable: true }) groupBuy: GroupBuyIntentInput | null | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return checkout(
      ctx,
      withoutNulls({ shippingAddress: { ...shippingAddress }, coupons, groupBuy: groupBuy && withoutNulls(groupBuy) }),
      idempotencyKey ?? undefined,
    );
  }

  @Query(() => CheckoutPreview, {
    description: "What checkout would place now for the cart: items, coupon discounts, freight and totals computed by the server. Nothing is written or reserved.",
  })
  checkoutPreview(
    @Arg('region', { description: 'Region code of the shipping address, such as CN-SH: freight depends on it' }) region: string,
    @Arg('coupons', () => [CouponChoiceInput], { nullable: true, description: 'At most one owned coupon per shop order' }) coupons: CouponChoiceInput[] | null | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return previewCheckout(ctx, withoutNulls({ region, coupons }));
  }

  @Query(() => OrderPage, { description: "The customer's orders, newest first" })
  orders(@Args(() => OrderListArgs) args: OrderListArgs, @Ctx() { ctx }: GraphQLContext) {
    return orders.listMyOrders(ctx, withoutNulls(args));
  }

  @Query(() => Order)
  order(@Arg('id', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return orders.getMyOrder(ctx, { orderId });
  }

  @Mutation(() => Order, { description: 'Pay from the available balance; paying a paid order charges nothing' })
  payOrder(
    @Arg('id', () => Int) orderId: number,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return orders.payOrder(ctx, { orderId }, idempotencyKey ?? undefined);
  }

  @Mutation(() => Order)
  cancelOrder(@Arg('id', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return orders.cancelOrder(ctx, { orderId });
  }

  @Mutation(() => Order)
  confirmDelivery(@Arg('id', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return orders.confirmDelivery(ctx, { orderId });
  }

  @Query(() => Invoice)
  orderInvoice(@Arg('orderId', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return getMyInvoice(ctx, { orderId });
  }

  @Query(() => AccountStats, { description: "The customer's balances and order counts" })
  myStats(@Ctx() { ctx }: GraphQLContext) {
    return myStats(ctx);
  }

  @Query(() => OrderPage, { description: "The operator's shop orders, newest first" })
  merchantOrders(@Args(() => OrderListArgs) args: OrderListArgs, @Ctx() { ctx }: GraphQLContext) {
    return orders.listShopOrders(ctx, withoutNulls(args));
  }

  @Query(() => Order)
  merchantOrder(@Arg('id', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return orders.getShopOrder(ctx, { orderId });
  }

  @Mutation(() => Order, { description: 'Ship a paid order, whole or in parts' })
  createShipment(@Arg('orderId', () => Int) orderId: number, @Arg('input', () => ShipmentInput) input: ShipmentInput, @Ctx() { ctx }: GraphQLContext) {
    return createShipment(ctx, { ...input, orderId });
  }

  @Mutation(() => Invoice)
  issueInvoice(
    @Arg('orderId', () => Int) orderId: number,
    @Arg('input', () => InvoiceInput, { nullable: true }) input: InvoiceInput | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return issueInvoice(ctx, { ...(input ?? {}), orderId });
  }
}

@Resolver(() => OrderItem)
export class OrderItemResolver {
  @FieldResolver(() => ProductType, { nullable: true, description: 'The product now (the line keeps its own name and price snapshot)' })
  product(@Root() item: OrderItemView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.products.load(item.productId);
  }
}
