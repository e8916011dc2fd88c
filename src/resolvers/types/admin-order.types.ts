import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { OrderStatus } from '../../entities/order.entity.js';
import { Order } from './order.types.js';
import { OrderPayment } from './payment.types.js';
import { Refund } from './after-sale.types.js';
import { PageArgs, PageType } from './page.types.js';
import { objectType } from './object-type.js';
import { OrderCustomerView } from '../../services/platform/admin-orders.service.js';
import type { ShopOrderSort } from '../../services/orders/order.service.js';
import { OrderStatusEnum, ShopOrderSortEnum } from './enums.js';

// Made from the platform service's view schema (object-type.ts).
export const OrderCustomer = objectType('OrderCustomer', OrderCustomerView);
export type OrderCustomer = OrderCustomerView;

@ObjectType({ description: 'An order of any shop as the platform reads it: the order (with its shipments), its payments and its refunds' })
export class AdminOrder {
  @Field(() => Order) order!: Order;
  @Field(() => OrderCustomer, { description: 'Who placed the order' }) customer!: OrderCustomer;
  @Field(() => [OrderPayment], { description: 'Every payment tried for the order, newest first, with what went back on its method' }) payments!: OrderPayment[];
  @Field(() => [Refund], { description: "The order's refunds and returns, oldest first" }) refunds!: Refund[];
}

@ObjectType()
export class AdminOrderPage extends PageType(AdminOrder) {}

@ArgsType()
export class AdminOrderListArgs extends PageArgs {
  @Field(() => Int, { nullable: true }) orderId?: number | null;
  @Field(() => Int, { nullable: true }) customerId?: number | null;
  @Field(() => String, { nullable: true, description: "The customer's email, exactly (case-insensitive)" }) customerEmail?: string | null;
  @Field(() => Int, { nullable: true }) shopId?: number | null;
  @Field(() => OrderStatusEnum, { nullable: true }) status?: OrderStatus | null;
  @Field(() => ShopOrderSortEnum, { nullable: true, description: 'Default: newest first' }) sort?: ShopOrderSort | null;
}
