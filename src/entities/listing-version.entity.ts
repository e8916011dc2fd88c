import { Entity, PrimaryKey, Property, Check } from '@mikro-orm/decorators/legacy';
import { BigIntType, PrimaryKeyProp, EntityName, type Opt } from '@mikro-orm/core';

/**
 * The catalog version: one row (id 1) whose counter moves, by statement triggers on `product` and
 * `category` and in the writing transaction, whenever the set of published products matching some
 * listing filter may have changed. A listing reads it in the same statement as its page, so a total
 * counted at the same version is exact (see `src/services/catalog/listing-total-cache.ts`). Only the triggers
 * write it; the trigger functions live in the CatalogVersion migration (MikroORM cannot describe a
 * trigger function shared by several triggers).
 */
@Entity()
@Check({ name: 'catalog_version_id_check', expression: 'id = 1' })
export class CatalogVersion {
  declare [EntityName]?: 'CatalogVersion';

  @PrimaryKey({ autoincrement: false })
  id!: number;

  /** Compared for equality only; read as text, as PostgreSQL sends a bigint. */
  @Property({ type: new BigIntType('string') })
  n!: string;
}

/**
 * The sales version: sixteen shards (a backend bumps the one its pid falls on; readers sum them)
 * that move whenever an order line enters or leaves sold_count. A `sort=sales` listing reads the
 * sixteen counters with the catalog version in the same statement as its page, and the changes logged
 * since its ranking's counters (SalesChange; see `src/services/catalog/sales-ranking-cache.ts`).
 * Only the triggers on `order_item` write it.
 */
@Entity()
@Check({ name: 'sales_version_shard_check', expression: 'shard >= 0 and shard < 16' })
export class SalesVersion {
  declare [EntityName]?: 'SalesVersion';
  [PrimaryKeyProp]?: 'shard';

  @PrimaryKey({ autoincrement: false })
  shard!: number;

  @Property({ type: new BigIntType('string') })
  n!: string;
}

/**
 * The sales-change log: one row per bump of a sales-version shard, under the counter the bump reached,
 * naming the product whose sold_count moved and by how much (null product: a bulk statement or a
 * truncate changed sold lines, and rankings that span it are ranked again). Written only by the
 * triggers on `order_item` (functions in the SalesChangeLog migration); read by the listing's page
 * statement to bring a remembered ranking up to date, and pruned by a sweep
 * (`src/services/catalog/sales-ranking-cache.ts`).
 */
@Entity()
@Check({ name: 'sales_change_shard_check', expression: 'shard >= 0 and shard < 16' })
export class SalesChange {
  declare [EntityName]?: 'SalesChange';
  [PrimaryKeyProp]?: ['shard', 'n'];

  @PrimaryKey({ autoincrement: false })
  shard!: number;

  /** The shard's counter after the bump that logged this change. */
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: false })
  n!: string;

  /** No foreign key: a payment's commit should not read the product table, and a product with sold lines is never deleted. */
  @Property({ type: 'integer', nullable: true })
  productId?: number | null;

  @Property({ type: 'integer' })
  delta!: number;

  @Property({ columnType: 'timestamptz', defaultRaw: 'clock_timestamp()' })
  at!: Date & Opt;
}

/** Per shard, the last counter of the sales-change log the retention sweep deleted through. */
@Entity()
@Check({ name: 'sales_change_horizon_shard_check', expression: 'shard >= 0 and shard < 16' })
export class SalesChangeHorizon {
  declare [EntityName]?: 'SalesChangeHorizon';
  [PrimaryKeyProp]?: 'shard';

  @PrimaryKey({ autoincrement: false })
  shard!: number;

  @Property({ type: new BigIntType('string') })
  prunedThrough!: string;
}
