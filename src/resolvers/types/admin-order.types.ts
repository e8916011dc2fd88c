import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { OrderStatus } from '../../entities/order.entity.js';
import { Order } from './order.types.js';
import { OrderPayment } from './payment.types.js';
import { Refund } from './after-sale.types.js';
import { PageArgs, PageType } from './page.types.js';
import { OrderStatusEnum } from './enums.js';

@ObjectType({ description: 'The customer who placed an order, as the platform reads them' })
export class OrderCustomer {
  @Field(() => Int) id!: number;
  @Field() email!: string;
  @Field() displayName!: string;
}

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
}
