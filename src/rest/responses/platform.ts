import { z } from 'zod';
import { named, page } from './common.js';
import { Order } from './purchase.js';
import { OrderPayment } from './payments.js';
import { Refund } from './after-sale.js';

/** An order of any shop as the platform reads it: the order (with its shipments), its payments and its refunds. */
export const AdminOrder = named('AdminOrder', z.strictObject({ order: Order, payments: z.array(OrderPayment), refunds: z.array(Refund) }));
export const AdminOrderPage = named('AdminOrderPage', page(AdminOrder));
