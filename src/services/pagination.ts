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
