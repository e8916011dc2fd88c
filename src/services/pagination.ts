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
