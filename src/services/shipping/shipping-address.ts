import { z } from '../../shared/validate.js';
import { regionCode } from './regions.js';

/** Where an order goes (every order has one), as the views answer it. */
export const ShippingAddressView = z.strictObject({
  recipient: z.string(),
  phone: z.string(),
  region: regionCode.describe('Freight templates match it'),
  address: z.string(),
});
export type ShippingAddressView = z.infer<typeof ShippingAddressView>;
