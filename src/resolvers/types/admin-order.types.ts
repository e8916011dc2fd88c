import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { OrderStatus } from '../../entities/order.entity.js';
// The types AdminOrder's fields hold are made first (object-type.ts refers to them by their schemas).
import './order.types.js';
import './payment.types.js';
import './after-sale.types.js';
import { PageArgs, PageType } from './page.types.js';
import { objectType } from './object-type.js';
import { AdminOrderView, OrderCustomerView } from '../../services/platform/admin-orders.service.js';
import type { ShopOrderSort } from '../../services/orders/order.service.js';
import { OrderStatusEnum, ShopOrderSortEnum } from './enums.js';

// Made from the platform service's view schema (object-type.ts).
export const OrderCustomer = objectType('OrderCustomer', OrderCustomerView);
export type OrderCustomer = OrderCustomerView;

// Made from the platform service's view schema, with its order, customer, payments and refunds made before it.
export const AdminOrder = objectType('AdminOrder', AdminOrderView);
export type AdminOrder = AdminOrderView;

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
