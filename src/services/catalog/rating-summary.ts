import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray } from '../../db/sql.js';
import { queryRows } from '../../db/prepared-statements.js';
import type { Database } from '../../db/typed-sql.js';

export interface RatingSummary {
  productId: number;
  /** Visible reviews only: hidden ones never count. */
  count: number;
  /** Mean rating rounded to 2 decimals; null without reviews. */
  average: number | null;
  /** Counts for ratings 1 to 5, in that order. */
  perStar: { rating: number; count: number }[];
}

/**
 * A product's visible reviews counted per star, as a JSON array of five counts (ratings 1 to 5),
 * for statements that read the summary with the product (one index-only scan of its reviews).
 */
export const ratingCountsOf = (productId: string) =>
  `(select array_to_json(array[
      count(*) filter (where rating = 1), count(*) filter (where rating = 2), count(*) filter (where rating = 3),
      count(*) filter (where rating = 4), count(*) filter (where rating = 5)]::int[])
     from review where product_id = ${productId} and not hidden)`;

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
  const rows = productIds.length === 0 ? [] : await queryRows<{ product_id: Database['Review']['product']; rating: Database['Review']['rating']; n: number }>(
    em,
    `select product_id, rating, count(*)::int as n from review
      where product_id = any(?::int[]) and not hidden group by product_id, rating`,
    [intArray([...productIds])],
  );
  const counts = new Map<number, number[]>();
  for (const r of rows) {
    const perStar = counts.get(r.product_id) ?? [0, 0, 0, 0, 0];
    perStar[r.rating - 1] = r.n;
    counts.set(r.product_id, perStar);
  }
  return productIds.map((productId) => ratingSummaryOf(productId, counts.get(productId) ?? [0, 0, 0, 0, 0]));
}
