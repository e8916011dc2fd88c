import { ShopStatus } from '../../entities/shop.entity.js';
import { z } from '../../shared/validate.js';
import { id, timestamp } from '../../shared/view-fields.js';

/** A shop's state as both doors answer it (shop-state.service.ts): REST publishes this schema and GraphQL's type is made from it. */
export const ShopStateView = z
  .strictObject({
    shopId: id,
    status: z.enum(ShopStatus),
    // Absent until there was one; a reinstatement or a closing keeps the last one.
    reason: z.string().optional().describe('The reason of the last suspension'),
    changedAt: timestamp.optional().describe('When the state last changed (absent: active since the shop was created)'),
  })
  .describe("A shop's state: active, suspended (its products off the storefront, payouts held) or closed");
export type ShopStateView = z.infer<typeof ShopStateView>;
