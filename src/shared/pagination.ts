import type { EntityManager } from '@mikro-orm/postgresql';
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

/** `limit` and `offset` of a page, as `em.find`/`em.findAndCount` and typed SQL take them. */
export const pageWindow = (p: PageRequest) => ({ limit: p.pageSize, offset: pageOffset(p) });

/** A page from its items and the total of the whole list (`em.findAndCount` answers both). */
export const pageOf = <T>(items: T[], request: PageRequest, total: number): Page<T> => ({
  items,
  page: request.page,
  pageSize: request.pageSize,
  total,
});

/**
 * One page of ids from `table` matching `where`, with the total in the same query (a window count);
 * only a page past the end costs a second count.
 */
export async function idPage(
  em: EntityManager,
  query: { table: string; where: string; params: unknown[]; order: 'asc' | 'desc' },
  paging: PageRequest,
): Promise<{ ids: number[]; total: number }> {
  const { table, where, params, order } = query;
  const rows = await em.execute<{ id: number; total: number }[]>(
    `select id, (count(*) over ())::int as total from ${table} where ${where} order by id ${order} limit ? offset ?`,
    [...params, paging.pageSize, pageOffset(paging)],
  );
  const total = await windowTotal(rows, paging, async () =>
    (await em.execute<{ n: number }[]>(`select count(*)::int as n from ${table} where ${where}`, params))[0].n,
  );
  return { ids: rows.map((r) => r.id), total };
}

/** The total of rows carrying `count(*) over ()` as `total`; only a page past the end (no rows) needs `countAll`. */
export async function windowTotal(rows: { total: string | number }[], paging: PageRequest, countAll: () => Promise<number>): Promise<number> {
  if (rows.length > 0) return Number(rows[0].total);
  return paging.page > 1 ? countAll() : 0;
}

/** A page of whole rows (not only ids) read with their window count: one query gives items and total. */
export async function pageFrom<R extends { total: string | number }, T>(
  rows: R[],
  request: PageRequest,
  map: (row: R) => T,
  countAll: () => Promise<number>,
): Promise<Page<T>> {
  const total = await windowTotal(rows, request, countAll);
  return { items: rows.map(map), page: request.page, pageSize: request.pageSize, total };
}
