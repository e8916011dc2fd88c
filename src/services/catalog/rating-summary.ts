import type { EntityManager } from '@mikro-orm/postgresql';
import { ratingCountsByProductIds } from './catalog.repository.js';
import { z } from '../../shared/validate.js';
import { count, id } from '../../shared/view-fields.js';

/** How many reviews gave a product one rating. REST publishes these schemas and GraphQL's types are made from them. */
export const StarCount = z.strictObject({ rating: z.number().int().min(1).max(5), count });
export type StarCount = z.infer<typeof StarCount>;

export const RatingSummary = z.strictObject({
  productId: id,
  // Hidden reviews never count.
  count: count.describe('Visible reviews only'),
  average: z.number().nullable().describe('Mean rating, 2 decimals; null without reviews'),
  perStar: z.array(StarCount).describe('Counts for ratings 1 to 5'),
});
export type RatingSummary = z.infer<typeof RatingSummary>;

/** The summary of one product from its five per-star counts (ratings 1 to 5). */
export function ratingSummaryOf(productId: number, perStar: readonly number[]): RatingSummary {
  const count = perStar.reduce((a, b) => a + b, 0);
  const sum = perStar.reduce((a, n, i) => a + n * (i + 1), 0);
  return {
    productId,
    count,
    average: count === 0 ? null : Math.round((sum * 100) / count) / 100,
    perStar: perStar.map((n, i) => ({ rating: i + 1, count: n })),
  };
}

/**
 * Rating summaries of a batch of products in one query (an index-only scan of the visible reviews),
 * returned in the order of `productIds`; a product without reviews gets a zero summary. Shaped for a
 * per-request DataLoader: `new DataLoader((ids) => ratingSummaries(em, [...ids]))`.
 */
export async function ratingSummaries(em: EntityManager, productIds: readonly number[]): Promise<RatingSummary[]> {
  const rows = productIds.length === 0 ? [] : await ratingCountsByProductIds.run(em, {}, { ids: [...productIds] });
  const counts = new Map<number, number[]>();
  for (const r of rows) {
    const perStar = counts.get(r.productId) ?? [0, 0, 0, 0, 0];
    perStar[r.rating - 1] = r.n;
    counts.set(r.productId, perStar);
  }
  return productIds.map((productId) => ratingSummaryOf(productId, counts.get(productId) ?? [0, 0, 0, 0, 0]));
}
