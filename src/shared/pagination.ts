import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/typed-sql.js';
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

/** The query of a list that takes nothing but paging. */
export const PageQuery = z.object(pageFields);

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
 * A list read newest or oldest first (by id) or by its name (ties by id), each in an index's order:
 * the platform's shops (shop_name_id_idx) and customers (app_user_customer_name_idx).
 */
export const NameSort = { Newest: 'newest', Oldest: 'oldest', NameAsc: 'name_asc', NameDesc: 'name_desc' } as const;
export type NameSort = (typeof NameSort)[keyof typeof NameSort];

/** `idPage`'s order for a `NameSort` (newest first when left out), the name being `column` (`Shop.name`). */
export function nameSortOrder(sort: NameSort | undefined, column: string): { by?: string; direction: 'asc' | 'desc' } {
  if (sort === NameSort.NameAsc || sort === NameSort.NameDesc) return { by: column, direction: sort === NameSort.NameAsc ? 'asc' : 'desc' };
  return { direction: sort === NameSort.Oldest ? 'asc' : 'desc' };
}

/** Tables keyed by a serial `id`. */
type Keyed = { [T in keyof Database]: Database[T] extends { id: number } ? T : never }[keyof Database];

/**
 * One page of the ids a filtered typed query of one table selects, by id in `order` (or by the column
 * `by` first, ties by id, both in `order`), with the total of the whole filter counted in the same
 * statement (a window count); only a page past the end costs a second count. `by` names its table
 * (`Order.total`): a bare `total` would be the page's own output column of that name, the count.
 */
export async function idPage<T extends Keyed>(
  rows: SelectQueryBuilder<Database, T, object>,
  paging: PageRequest,
  order: 'asc' | 'desc',
  by?: string,
): Promise<{ ids: number[]; total: number }> {
  const id = sql.ref<number>('id');
  const sorted = by ? rows.orderBy(sql.ref(by), order) : rows;
  const page = await sorted
    .select([id.as('id'), sql<number>`(count(*) over ())::int`.as('total')])
    .orderBy(id, order)
    .limit(paging.pageSize)
    .offset(pageOffset(paging))
    .execute();
  const total = await windowTotal(page, paging, async () => (await rows.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
  return { ids: page.map((r) => r.id), total };
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
