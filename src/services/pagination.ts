import { z, wholeNumber } from './validate.js';

/** One pagination contract for every list: `page` from 1, `pageSize` 20 by default and at most 100. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** Spread into a zod object; both parameters arrive as digits over REST and as numbers over GraphQL. */
export const pageFields = {
  page: wholeNumber(z.number().int().min(1).max(1_000_000)).optional().default(1),
  pageSize: wholeNumber(z.number().int().min(1).max(PAGE_SIZE_MAX)).optional().default(PAGE_SIZE_DEFAULT),
};

export interface PageRequest {
  page: number;
  pageSize: number;
}

export const pageOffset = (p: PageRequest) => (p.page - 1) * p.pageSize;

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
