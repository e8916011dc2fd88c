import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import * as cart from '../services/checkout/cart.service.js';
import { checkout, previewCheckout } from '../services/checkout/checkout.service.js';
import * as orders from '../services/orders/order.service.js';
import * as payments from '../services/payments/payment.service.js';
import { createShipment } from '../services/orders/shipment.service.js';
import { getMyInvoice, issueInvoice } from '../services/orders/invoice.service.js';
import { myStats } from '../services/accounts/account.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { RegionCodeEnum } from './types/enums.js';
import type { RegionCode } from '../services/shipping/regions.js';
import { CouponChoiceInput } from './types/coupon.types.js';
import { CheckoutInput, CheckoutPayload } from './types/checkout.types.js';
import {
  AccountStats, CancelOrderInput, CancelOrderPayload, Cart, CheckoutPreview, ConfirmDeliveryInput, ConfirmDeliveryPayload, CreateShipmentInput,
  CreateShipmentPayload, Invoice, IssueInvoiceInput, IssueInvoicePayload, Order, OrderItem, OrderListArgs, OrderPage, ShopOrderListArgs, MergeCartInput, MergeCartPayload, PayCheckoutInput, PayCheckoutPayload, PayOrderInput, PayOrderPayload,
  RemoveCartItemInput, RemoveCartItemPayload, SetCartItemInput, SetCartItemPayload,
} from './types/order.types.js';
import { ProductType } from './types/catalog.types.js';
import type { OrderItemView } from '../services/orders/order-view.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class PurchaseResolver {
  @Allow(Permission.Customer)
  @Query(() => Cart, { description: "The signed-in customer's cart" })
  cart(@Ctx() { ctx }: GraphQLContext) {
    return cart.getCart(ctx);
  }

  @Allow(Permission.Customer)
  @Mutation(() => SetCartItemPayload, { description: 'Set the quantity of a SKU in the cart (0 removes it)' })
  setCartItem(@Arg('input', () => SetCartItemInput) input: SetCartItemInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, SetCartItemPayload, () => cart.setCartItem(ctx, { ...input }));
  }

  @Allow(Permission.Customer)
  @Mutation(() => MergeCartPayload, { description: 'Merge the guest cart kept while signed out: quantities add up to the stock; each line answered' })
  mergeCart(@Arg('input', () => MergeCartInput) input: MergeCartInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, MergeCartPayload, () => cart.mergeCart(ctx, { items: input.items.map((i) => ({ ...i })) }, input.idempotencyKey ?? undefined));
  }

  @Allow(Permission.Customer)
  @Mutation(() => RemoveCartItemPayload)
  removeCartItem(@Arg('input', () => RemoveCartItemInput) input: RemoveCartItemInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RemoveCartItemPayload, () => cart.removeCartItem(ctx, { ...input }));
  }

  @Allow(Permission.Customer)
  @Mutation(() => CheckoutPayload, {
    description: 'One order per shop in the cart, or with groupBuy one group-buying order (the cart is not used), shipped to one address. The same idempotencyKey replays the first answer.',
  })
  checkout(@Arg('input', () => CheckoutInput) input: CheckoutInput, @Ctx() { ctx }: GraphQLContext) {
    const { idempotencyKey, shippingAddress, coupons, groupBuy } = input;
    return answer(ctx, CheckoutPayload, () =>
      checkout(ctx, withoutNulls({ shippingAddress: { ...shippingAddress }, coupons, groupBuy: groupBuy && withoutNulls(groupBuy) }), idempotencyKey ?? undefined),
    );
  }

  @Allow(Permission.Customer)
  @Query(() => CheckoutPreview, {
    // Nullable: a refusal (an empty cart, a coupon that does not apply) nulls this field alone, with
    // its code in `errors`, and leaves the other fields of the operation their data.
    nullable: true,
    description: "What checkout would place now for the cart: items, coupon discounts, freight and totals computed by the server. Nothing is written or reserved. Null when checkout would refuse the cart, with the refusal's code in `errors`.",
  })
  checkoutPreview(
    @Arg('region', () => RegionCodeEnum, { description: 'The region of the shipping address: freight depends on it' }) region: RegionCode,
    @Arg('coupons', () => [CouponChoiceInput], { nullable: true, description: 'At most one owned coupon per shop order' }) coupons: CouponChoiceInput[] | null | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return previewCheckout(ctx, withoutNulls({ region, coupons }));
  }

  @Allow(Permission.Customer)
  @Query(() => OrderPage, { description: "The customer's orders, newest first" })
  orders(@Args(() => OrderListArgs) args: OrderListArgs, @Ctx() { ctx }: GraphQLContext) {
    return orders.listMyOrders(ctx, withoutNulls(args));
  }

  @Allow(Permission.Customer)
  @Query(() => Order, { nullable: true, description: "One of the customer's orders" })
  order(@Arg('id', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return orders.getMyOrder(ctx, { orderId });
  }

  @Allow(Permission.Customer)
  @Mutation(() => PayOrderPayload, { description: 'Pay from the available balance; paying a paid order charges nothing' })
  payOrder(@Arg('input', () => PayOrderInput) input: PayOrderInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, PayOrderPayload, () => payments.payOrder(ctx, { orderId: input.orderId }, input.idempotencyKey ?? undefined));
  }

  @Allow(Permission.Customer)
  @Mutation(() => PayCheckoutPayload, { description: 'Pay every order of a checkout at once from the balance: all or none' })
  payCheckout(@Arg('input', () => PayCheckoutInput) input: PayCheckoutInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, PayCheckoutPayload, () => payments.payCheckout(ctx, { orderIds: input.orderIds }, input.idempotencyKey ?? undefined));
  }

  @Allow(Permission.Customer)
  @Mutation(() => CancelOrderPayload, { description: 'Cancel an order waiting for payment' })
  cancelOrder(@Arg('input', () => CancelOrderInput) input: CancelOrderInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CancelOrderPayload, () => orders.cancelOrder(ctx, { ...input }));
  }

  @Allow(Permission.Customer)
  @Mutation(() => ConfirmDeliveryPayload, { description: 'The customer confirms a shipped order arrived' })
  confirmDelivery(@Arg('input', () => ConfirmDeliveryInput) input: ConfirmDeliveryInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ConfirmDeliveryPayload, () => orders.confirmDelivery(ctx, { ...input }));
  }

  @Allow(Permission.Customer)
  @Query(() => Invoice, { nullable: true, description: "The invoice of one of the customer's paid orders" })
  orderInvoice(@Arg('orderId', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return getMyInvoice(ctx, { orderId });
  }

  @Allow(Permission.Customer)
  @Query(() => AccountStats, { description: "The customer's balances and order counts" })
  async myStats(@Ctx() { ctx }: GraphQLContext) {
    return myStats(ctx);
  }

  @Allow(Permission.ShopOrdersRead)
  @Query(() => OrderPage, { description: "The operator's shop orders, newest first unless `sort` says otherwise" })
  merchantOrders(@Args(() => ShopOrderListArgs) args: ShopOrderListArgs, @Ctx() { ctx }: GraphQLContext) {
    return orders.listShopOrders(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopOrdersRead)
  @Query(() => Order, { nullable: true, description: "One of the operator's shop orders" })
  merchantOrder(@Arg('id', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return orders.getShopOrder(ctx, { orderId });
  }

  @Allow(Permission.ShopOrdersFulfil)
  @Mutation(() => CreateShipmentPayload, { description: 'Ship a paid order, whole or in parts' })
  createShipment(@Arg('input', () => CreateShipmentInput) input: CreateShipmentInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreateShipmentPayload, () => createShipment(ctx, withoutNulls({ ...input, items: input.items?.map((i) => ({ ...i })) })));
  }

  @Allow(Permission.ShopInvoicesIssue)
  @Mutation(() => IssueInvoicePayload, { description: "Issue a paid order's invoice (once)" })
  issueInvoice(@Arg('input', () => IssueInvoiceInput) input: IssueInvoiceInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, IssueInvoicePayload, () => issueInvoice(ctx, withoutNulls({ ...input })));
  }
}

@Resolver(() => OrderItem)
export class OrderItemResolver {
  @FieldResolver(() => ProductType, { nullable: true, description: 'The product now (the line keeps its own name and price snapshot)' })
  product(@Root() item: OrderItemView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.products.load(item.productId);
  }
}
