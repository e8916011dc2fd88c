import type pg from 'pg';
import { hashToken } from '../src/services/accounts/auth.service.js';
import type { CpuMeter } from './cpu.js';
import { BURST_BUYERS, MIXED_WRITERS, type BenchOptions } from './options.js';

/** Facts the scenarios need: ids to request, and customers with tokens for the write scenarios. */
export interface Fixtures {
  topCategory: number;
  productIds: number[];
  /** Tokens of the bench customers: the first BURST_BUYERS are the flash-sale buyers, the rest check out. */
  tokens: string[];
  /** Their user ids, in the same order. */
  customers: number[];
  /** One distinct SKU per checkout customer, each with plenty of stock. */
  skus: number[];
}

/** What every scenario works with: the server being measured and the bench's own database session. */
export interface BenchContext {
  options: BenchOptions;
  base: string;
  db: pg.Client;
  dbUrl: string;
  dbName: string;
  fixtures: Fixtures;
  /** The CPU meter of the server being measured, when one runs. */
  meter?: CpuMeter;
  log(message: string): void;
}

export async function fixtures(db: pg.Client, options: BenchOptions): Promise<Fixtures> {
  const topCategory = (await db.query(`select id from category where depth = 0 order by id limit 1`)).rows[0].id as number;
  const productIds = (await db.query(`select id from product where status = 'published' order by id`)).rows.map((r) => r.id as number);
  const writers = Math.max(options.connections, MIXED_WRITERS);
  const customers = (await db.query(`select id from app_user where email like 'bench-%' order by id limit $1`, [BURST_BUYERS + writers])).rows.map((r) => r.id as number);
  const tokens: string[] = [];
  const stamp = Date.now();
  for (const id of customers) tokens.push(`bench-token-${id}-${stamp}`);
  await db.query(
    `insert into auth_token (token_hash, user_id, expires_at, created_at) select h, u, now() + interval '1 day', now() from unnest($1::text[], $2::int[]) t(h, u)`,
    [tokens.map(hashToken), customers],
  );
  const skus = (await db.query(`select s.id from sku s join product p on p.id = s.product_id where p.status = 'published' order by s.id desc limit $1`, [writers])).rows.map((r) => r.id as number);
  return { topCategory, productIds, tokens, customers, skus };
}

/** The checkout customers (after the burst buyers) and their SKUs, `count` of them. */
export function checkoutCustomers(f: Fixtures, count: number): { token: string; sku: number }[] {
  const tokens = f.tokens.slice(BURST_BUYERS);
  if (tokens.length < count || f.skus.length < count) throw new Error(`${count} checkout customers needed, ${Math.min(tokens.length, f.skus.length)} loaded`);
  return tokens.slice(0, count).map((token, i) => ({ token, sku: f.skus[i] }));
}
