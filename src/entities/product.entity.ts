import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Enum, Index, Check, Trigger } from '@mikro-orm/decorators/legacy';
import { EntityName, Collection, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { Category } from './category.entity.js';
import { Brand } from './brand.entity.js';
import { Sku } from './sku.entity.js';
import { FreightTemplate } from './freight-template.entity.js';
import { sqlTrigger } from './sql-trigger.js';

/**
 * Publish lifecycle: created as draft, published to the storefront, unpublished to withdraw. `held`:
 * published, but its shop is suspended or closed; only the shop lifecycle moves a product in or out
 * of it (src/services/shops/shop-lifecycle.ts), so reinstating the shop publishes exactly the
 * products it held. Every storefront read keys on `published`, so a held product is on none of them.
 */
export enum ProductStatus {
  Draft = 'draft',
  Published = 'published',
  Unpublished = 'unpublished',
  Held = 'held',
}

/**
 * A shop's product. The storefront reads only published products: its listing indexes are partial,
 * and each ends with id, the tie-breaker of every listing order. Statement triggers move the catalog
 * version (CatalogVersion) when the published set of some filter may change; a fourth one (after
 * truncate) lives only in the CatalogVersion migration, with the trigger functions, as MikroORM
 * cannot see truncate triggers.
 */
@Entity()
@Index({ name: 'product_published_id_idx', properties: ['id'], where: "status = 'published'" })
@Index({ name: 'product_published_price_idx', properties: ['priceFrom', 'id'], where: "status = 'published'" })
@Index({ name: 'product_published_category_idx', properties: ['category', 'id'], where: "status = 'published'" })
@Index({ name: 'product_published_brand_idx', properties: ['brand', 'id'], where: "status = 'published'" })
// A category narrowed by brand, shop or price: counted and its candidates read from the index alone.
@Index({ name: 'product_published_category_cover_idx', properties: ['category', 'brand', 'shop', 'priceFrom', 'id'], where: "status = 'published'" })
// Merchant listing (own shop, newest first); also serves the foreign key.
@Index({ name: 'product_shop_id_id_idx', properties: ['shop', 'id'] })
// The merchant listing sorted by name or by price: one shop's rows already in that order, ties by id.
@Index({ name: 'product_shop_name_idx', properties: ['shop', 'name', 'id'] })
@Index({ name: 'product_shop_price_idx', properties: ['shop', 'priceFrom', 'id'] })
@Check({ name: 'product_price_from_non_negative', expression: 'price_from >= 0' })
@Trigger(sqlTrigger(`create trigger product_catalog_version_insert after insert on product referencing new table as new_rows
    for each statement execute function product_catalog_version_bump()`))
@Trigger(sqlTrigger(`create trigger product_catalog_version_update after update on product referencing old table as old_rows new table as new_rows
    for each statement execute function product_catalog_version_bump()`))
@Trigger(sqlTrigger(`create trigger product_catalog_version_delete after delete on product referencing old table as old_rows
    for each statement execute function product_catalog_version_bump()`))
// Keyword search (migration Search): the document is computed from the product and the names of its
// brand, shop and categories; the suggestion table holds the names of published products.
@Index({
  name: 'product_search_document_idx',
  expression: `create index "product_search_document_idx" on "product" using gin ("search_document") where status = 'published'`,
})
@Index({
  name: 'product_name_trgm_idx',
  expression: `create index "product_name_trgm_idx" on "product" using gin ("name" gin_trgm_ops) where status = 'published'`,
})
@Trigger(sqlTrigger(`create trigger product_search_document before insert or update of name, description, brand_id, shop_id, category_id on product
    for each row execute function product_search_document()`))
@Trigger(sqlTrigger(`create trigger product_search_suggestion after insert or update of name, status or delete on product
    for each row execute function search_suggestion_sync()`))
export class Product {
  declare [EntityName]?: 'Product';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @ManyToOne(() => Category, { index: true })
  category!: Rel<Category>;

  @ManyToOne(() => Brand, { nullable: true, deleteRule: 'set null', index: true })
  brand?: Rel<Brand> | null;

  /** One of its own shop's templates; none ships free. A template in use cannot be deleted. */
  @ManyToOne(() => FreightTemplate, { nullable: true, deleteRule: 'restrict', index: true })
  freightTemplate?: Rel<FreightTemplate> | null;

  @Property({ length: 200 })
  name!: string;

  @Property({ columnType: 'text', nullable: true })
  description?: string | null;

  @Property({ length: 500, nullable: true })
  imageUrl?: string | null;

  @Enum({ items: () => ProductStatus })
  status: ProductStatus & Opt = ProductStatus.Draft;

  /** Lowest SKU price, kept in step with the SKUs by the catalog service so price sorting is indexed. */
  @Property()
  priceFrom!: number;

  /**
   * What keyword search matches (src/services/catalog/search/): weighted A name, B brand and shop names, C the
   * category path's names, D description, with CJK text also as overlapping character bigrams and
   * single characters (the `simple` configuration does not split Chinese into words). Written only
   * by the `product_search_document` trigger; never loaded by the ORM.
   */
  @Property({ columnType: 'tsvector', nullable: true, lazy: true })
  searchDocument?: string | null;

  @OneToMany(() => Sku, (sku) => sku.product, { orderBy: { id: 'asc' } })
  skus = new Collection<Sku>(this);

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
