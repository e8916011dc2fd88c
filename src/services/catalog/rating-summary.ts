import type { EntityManager } from '@mikro-orm/postgresql';
import { ratingCountsByProductIds } from './catalog.repository.js';

export interface RatingSummary {
  productId: number;
  /** Visible reviews only: hidden ones never count. */
  count: number;
  /** Mean rating rounded to 2 decimals; null without reviews. */
  average: number | null;
  /** Counts for ratings 1 to 5, in that order. */
  perStar: { rating: number; count: number }[];
}

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
