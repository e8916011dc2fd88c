/** A shop's storefront profile, as the platform console's form checks it and the service parses it (shop.service.ts); zod and the shared rules only. */
import { httpUrl, z } from '../../shared/input-rules.js';

export const ProfileInput = z.strictObject({
  logoUrl: httpUrl(),
  description: z.string().trim().max(2000).nullish(),
  bannerUrl: httpUrl().nullish(),
  contactPhone: z.string().trim().max(40).nullish(),
  address: z.string().trim().max(300).nullish(),
});
