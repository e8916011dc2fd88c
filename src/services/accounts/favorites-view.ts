import { z } from '../../shared/validate.js';
import { id, money, timestamp } from '../../shared/view-fields.js';

/** A shop as the favorites list shows it (REST calls it ShopSummary, GraphQL FavoriteShopSummary). */
export const FavoriteShopSummaryView = z.strictObject({
  id,
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().optional().describe("From the shop's profile; null when it has none"),
});
export type FavoriteShopSummaryView = z.infer<typeof FavoriteShopSummaryView>;

/**
 * A product as the favorites list shows it. Its shop carries the logo; GraphQL's ProductSummary names
 * the shop by the three-field ShopSummary instead (it resolves from the same object), so that type is
 * held to this schema by test/one-description.test.ts rather than made from it.
 */
export const ProductSummaryView = z.strictObject({
  id,
  name: z.string(),
  imageUrl: z.string().optional(),
  priceFrom: money.describe('Lowest SKU price, in minor units of the base currency'),
  // A favorite stays listed after its product is withdrawn.
  available: z.boolean().describe('False once the product is withdrawn from sale'),
  shop: FavoriteShopSummaryView,
});
export type ProductSummaryView = z.infer<typeof ProductSummaryView>;

export const FavoriteProductView = z.strictObject({ product: ProductSummaryView, favoritedAt: timestamp });
export type FavoriteProductView = z.infer<typeof FavoriteProductView>;

export const FavoriteShopView = z.strictObject({ shop: FavoriteShopSummaryView, favoritedAt: timestamp });
export type FavoriteShopView = z.infer<typeof FavoriteShopView>;
