import { notFound } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { OrderStatus } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { emailAddress, id, parseInput, z } from '../../shared/validate.js';
import { idPage, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { orderViews, OrderView } from '../orders/order-view.js';
import { ORDER_SORTS, ShopOrderSort } from '../orders/order.service.js';
import { orderPayments, OrderPaymentView } from '../payments/order-payments.js';
import { refundViews, RefundView } from '../after-sale/refund-view.js';

/**
 * Orders across every shop for the platform (issue 41, item 4): found by id, customer (id or email),
 * shop and status, each with its shipments (in the order's view), its payments and what went back on
 * their method (payments/order-payments.ts) and its refunds (after-sale/refund-view.ts): the views
 * the customer and the shop already read, put side by side.
 */

export const AdminOrderListInput = z.object({
  ...pageFields,
  orderId: id.optional(),
  customerId: id.optional(),
  /** The customer's email, exactly (case-insensitive: emails are stored lower-cased). */
  customerEmail: emailAddress.optional(),
  shopId: id.optional(),
  status: z.enum(OrderStatus).optional(),
  /** The table's order, as the shop's (newest first when left out). */
  sort: z.enum(ShopOrderSort).optional(),
});
const OrderRef = z.strictObject({ orderId: id });

/**
 * Who placed the order, as the platform finds them (the customers screen searches the same): REST
 * publishes this schema and GraphQL's type is made from it.
 */
export const OrderCustomerView = z.strictObject({ id, email: z.string(), displayName: z.string() }).describe('The customer who placed an order, as the platform reads them');
export type OrderCustomerView = z.infer<typeof OrderCustomerView>;

/** An order as the platform reads it: REST publishes this schema and GraphQL's AdminOrder is made from it. */
export const AdminOrderView = z
  .strictObject({
    order: OrderView,
    customer: OrderCustomerView.describe('Who placed the order'),
    payments: z.array(OrderPaymentView).describe('Every payment tried for the order, newest first, with what went back on its method'),
    refunds: z.array(RefundView).describe("The order's refunds and returns, oldest first"),
  })
  .describe('An order of any shop as the platform reads it: the order (with its shipments), its payments and its refunds');
export type AdminOrderView = z.infer<typeof AdminOrderView>;

/** The orders' full views, in the order of `ids`: one statement for the orders, one for their customers, one for their refunds, one set per order for its payments. */
async function adminOrderViews(ctx: ServiceContext, ids: number[]): Promise<AdminOrderView[]> {
  if (ids.length === 0) return [];
  const orders = await orderViews(ctx.em, ids);
  if (orders.length === 0) return [];
  const customerIds = [...new Set(orders.map((o) => o.customerId))];
  const customers = new Map(
    (await typedSql(ctx.em).selectFrom('User').select(['id', 'email', 'displayName']).where('id', 'in', customerIds).execute()).map((c) => [c.id, c]),
  );
  const refundRows = await typedSql(ctx.em).selectFrom('Refund').select(['id', 'order']).where('order', 'in', ids).orderBy('id').execute();
  const refunds = await refundViews(ctx.em, refundRows.map((r) => r.id));
  const views: AdminOrderView[] = [];
  // One after the other: the request's entity manager runs one statement at a time.
  for (const order of orders) {
    const { items: payments } = await orderPayments(ctx, { orderId: order.id });
    views.push({ order, customer: customers.get(order.customerId)!, payments, refunds: refunds.filter((r) => r.orderId === order.id) });
  }
  return views;
}

/**
 * orderPayments answers 404 to a reader it does not let in: never an admin, but the list documents
 * what the call it makes can answer.
 */
export const listAdminOrdersRefusals = refusals('NOT_FOUND');

/** Every shop's orders, newest first unless `sort` says otherwise, filtered by any of id, customer, shop and status (platform admin). */
export async function listAdminOrders(ctx: ServiceContext, input: unknown): Promise<Page<AdminOrderView>> {
  requirePlatformPermission(ctx, Permission.PlatformOrdersRead);
  const { orderId, customerId, customerEmail, shopId, status, sort, ...paging } = parseInput(AdminOrderListInput, input ?? {});
  const db = typedSql(ctx.em);
  let orders = db.selectFrom('Order');
  if (orderId !== undefined) orders = orders.where('id', '=', orderId);
  if (customerId !== undefined) orders = orders.where('customer', '=', customerId);
  if (customerEmail !== undefined) orders = orders.where('customer', 'in', db.selectFrom('User').select('id').where('email', '=', customerEmail));
  if (shopId !== undefined) orders = orders.where('shop', '=', shopId);
  if (status) orders = orders.where('status', '=', status);
  const { by, direction } = ORDER_SORTS[sort ?? ShopOrderSort.Newest];
  const { ids, total } = await idPage(orders, paging, direction, by);
  return pageOf(await adminOrderViews(ctx, ids), paging, total);
}

export const getAdminOrderRefusals = refusals('NOT_FOUND');

/** One order of any shop, with its payments and refunds (platform admin). */
export async function getAdminOrder(ctx: ServiceContext, input: unknown): Promise<AdminOrderView> {
  requirePlatformPermission(ctx, Permission.PlatformOrdersRead);
  const { orderId } = parseInput(OrderRef, input);
  const [view] = await adminOrderViews(ctx, [orderId]);
  if (!view) throw notFound('Order', { order_id: orderId });
  return view;
}
