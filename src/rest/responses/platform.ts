import { z } from 'zod';
import { AdminShopBalanceView, AdminShopView } from '../../services/platform/admin-shop-view.js';
import { AdminOrderView, OrderCustomerView } from '../../services/platform/admin-orders.service.js';
import { SentStaffInvitationView, StaffInvitationView, StaffMemberView } from '../../services/platform/staff-views.js';
import { named, page } from './common.js';
// Named before AdminOrder, which holds them: the document lists its schemas in the order they are named.
import './purchase.js';
import './payments.js';
import './after-sale.js';

export const OrderCustomer = named('OrderCustomer', OrderCustomerView);
export const AdminOrder = named('AdminOrder', AdminOrderView);
export const AdminOrderPage = named('AdminOrderPage', page(AdminOrder));

export const AdminShopBalance = named('AdminShopBalance', AdminShopBalanceView);
export const AdminShop = named('AdminShop', AdminShopView);
export const AdminShopPage = named('AdminShopPage', page(AdminShop));

export const StaffMember = named('StaffMember', StaffMemberView);
export const StaffMemberList = named('StaffMemberList', z.strictObject({ items: z.array(StaffMember) }));
export const StaffInvitation = named('StaffInvitation', StaffInvitationView);
export const StaffInvitationList = named('StaffInvitationList', z.strictObject({ items: z.array(StaffInvitation) }));
export const SentStaffInvitation = named('SentStaffInvitation', SentStaffInvitationView);
