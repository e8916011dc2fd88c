import type { Router } from 'express';
import * as customers from '../services/accounts/customer-admin.service.js';
import { route } from './route.js';
import { Customer, CustomerPage } from './responses/accounts.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Customers';

/** Customers for the platform: search, read, disable and enable an account. */
export function customerAdminRoutes(router: Router) {
  route(router, '/admin/customers', {
    get: {
      doc: { tag, summary: 'Customers, newest first: by part of the email or name or by id (q), and by state, with their order counts', permission: Permission.PlatformCustomersRead, query: customers.CustomerListInput, response: CustomerPage },
      handle: ({ ctx, query }) => customers.listCustomers(ctx, query),
    },
  });
  route(router, '/admin/customers/:customerId', {
    get: {
      doc: { tag, summary: 'One customer, with their order count', permission: Permission.PlatformCustomersRead, response: Customer, errors: customers.getCustomerRefusals },
      handle: ({ ctx, params }) => customers.getCustomer(ctx, params),
    },
  });
  route(router, '/admin/customers/:customerId/disable', {
    post: {
      doc: {
        tag, summary: 'Disable an account, with a reason: it cannot sign in, its tokens are revoked and its websockets closed', permission: Permission.PlatformCustomersManage,
        body: customers.DisableCustomerInput, response: Customer, errors: customers.disableCustomerRefusals,
      },
      handle: ({ ctx, params, body }) => customers.disableCustomer(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/admin/customers/:customerId/enable', {
    post: {
      doc: { tag, summary: 'Enable a disabled account again: it may sign in anew', permission: Permission.PlatformCustomersManage, response: Customer, errors: customers.enableCustomerRefusals },
      handle: ({ ctx, params }) => customers.enableCustomer(ctx, params),
    },
  });
}
