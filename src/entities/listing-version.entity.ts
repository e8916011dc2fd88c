import { Entity, PrimaryKey, Property, Check } from '@mikro-orm/decorators/legacy';
import { BigIntType, PrimaryKeyProp, EntityName } from '@mikro-orm/core';

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
 * that move whenever an order line enters or leaves sold_count. A `sort=sales` listing reads their sum
 * with the catalog version in the same statement as its page (see `src/services/catalog/sales-ranking-cache.ts`).
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
