import { z } from './validate.js';

/** One pagination contract for every list: `page` from 1, `pageSize` up to 100 (default 20). */
export const PageInput = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export type PageRequest = z.output<typeof PageInput>;

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export const offsetOf = (p: PageRequest) => (p.page - 1) * p.pageSize;

/**
 * Builds a page from rows that carry `count(*) over ()` as `total`, so one query gives the items and the
 * total. Only a page past the end (no rows) needs the separate count.
 */
export async function pageFrom<R extends { total: string | number }, T>(
  rows: R[],
  request: PageRequest,
  map: (row: R) => T,
  countAll: () => Promise<number>,
): Promise<Page<T>> {
  const total = rows.length > 0 ? Number(rows[0].total) : request.page > 1 ? await countAll() : 0;
  return { items: rows.map(map), page: request.page, pageSize: request.pageSize, total };
}
