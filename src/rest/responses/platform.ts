import { z } from 'zod';
import { AdminShopBalanceView, AdminShopView } from '../../services/platform/admin-shop-view.js';
import { OrderCustomerView } from '../../services/platform/admin-orders.service.js';
import { StaffInvitationView, StaffMemberView } from '../../services/platform/staff-views.js';
import { named, page } from './common.js';
import { Order } from './purchase.js';
import { OrderPayment } from './payments.js';
import { Refund } from './after-sale.js';

/** An order of any shop as the platform reads it: the order (with its shipments), its payments and its refunds. */
export const OrderCustomer = named('OrderCustomer', OrderCustomerView);
export const AdminOrder = named('AdminOrder', z.strictObject({ order: Order, customer: OrderCustomer, payments: z.array(OrderPayment), refunds: z.array(Refund) }));
export const AdminOrderPage = named('AdminOrderPage', page(AdminOrder));

export const AdminShopBalance = named('AdminShopBalance', AdminShopBalanceView);
export const AdminShop = named('AdminShop', AdminShopView);
export const AdminShopPage = named('AdminShopPage', page(AdminShop));

export const StaffMember = named('StaffMember', StaffMemberView);
export const StaffMemberList = named('StaffMemberList', z.strictObject({ items: z.array(StaffMember) }));
export const StaffInvitation = named('StaffInvitation', StaffInvitationView);
export const StaffInvitationList = named('StaffInvitationList', z.strictObject({ items: z.array(StaffInvitation) }));
export const SentStaffInvitation = named(
  'SentStaffInvitation',
  z.strictObject({
    invitation: StaffInvitation,
    token: z.string().describe('The one-time token of the link the invitee opens; shown this once, only its hash is kept'),
    emailSent: z.boolean().describe('Whether the mail server (SMTP_URL) took the invitation email at once; false: it is tried again for about a day (not without SMTP_URL), and you may pass the link on yourself'),
  }),
);
