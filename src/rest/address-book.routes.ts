import type { Router } from 'express';
import * as book from '../services/shipping/address-book.service.js';
import { route, Reply } from './route.js';
import { RegionList, SavedAddress, SavedAddressList } from './responses/address-book.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Address book';

/** The regions the mall ships to, and the customer's saved addresses. */
export function addressBookRoutes(router: Router) {
  route(router, '/regions', {
    get: { doc: { tag, summary: 'The regions the mall ships to (31 mainland provinces, Hong Kong, Macau, Taiwan), by name', permission: Permission.Public, response: RegionList }, handle: () => Promise.resolve({ items: book.listRegions() }) },
  });
  route(router, '/me/addresses', {
    get: { doc: { tag, summary: "The customer's saved addresses, the default first", permission: Permission.Customer, response: SavedAddressList }, handle: async ({ ctx }) => ({ items: await book.listMyAddresses(ctx) }) },
    post: {
      doc: { tag, summary: 'Save an address (the first one becomes the default)', permission: Permission.Customer, body: book.SavedAddressInput, response: SavedAddress, status: 201, errors: book.addAddressRefusals },
      handle: async ({ ctx, body }) => new Reply(201, await book.addAddress(ctx, body)),
    },
  });
  route(router, '/me/addresses/:addressId', {
    patch: {
      doc: { tag, summary: 'Change a saved address (`is_default: true` makes it the default)', permission: Permission.Customer, body: book.SavedAddressInput.partial(), response: SavedAddress, errors: book.updateAddressRefusals },
      handle: ({ ctx, params, body }) => book.updateAddress(ctx, params.addressId, body),
    },
    delete: {
      doc: { tag, summary: 'Delete a saved address (the newest one left becomes the default)', permission: Permission.Customer, response: null, errors: book.deleteAddressRefusals },
      handle: async ({ ctx, params }) => (await book.deleteAddress(ctx, params.addressId), new Reply(204, undefined)),
    },
  });
  route(router, '/me/addresses/:addressId/default', {
    put: {
      doc: { tag, summary: 'Make a saved address the default', permission: Permission.Customer, response: SavedAddress, errors: book.setDefaultAddressRefusals },
      handle: ({ ctx, params }) => book.setDefaultAddress(ctx, params.addressId),
    },
  });
}
