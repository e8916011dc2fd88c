import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Enum, Index, Check } from '@mikro-orm/decorators/legacy';
import { Collection, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { Category } from './category.entity.js';
import { Brand } from './brand.entity.js';
import { Sku } from './sku.entity.js';
import { FreightTemplate } from './freight-template.entity.js';

/** Publish lifecycle: created as draft, published to the storefront, unpublished to withdraw. */
export enum ProductStatus {
  Draft = 'draft',
  Published = 'published',
  Unpublished = 'unpublished',
}

/** Listing indexes are partial (published rows only); the migration holds their exact definitions. */
@Entity()
@Index({ name: 'product_published_id_idx', expression: `create index "product_published_id_idx" on "product" ("id") where status = 'published'` })
@Index({ name: 'product_published_price_idx', expression: `create index "product_published_price_idx" on "product" ("price_from", "id") where status = 'published'` })
@Index({ name: 'product_published_category_idx', expression: `create index "product_published_category_idx" on "product" ("category_id", "id") where status = 'published'` })
@Index({ name: 'product_published_brand_idx', expression: `create index "product_published_brand_idx" on "product" ("brand_id", "id") where status = 'published'` })
@Index({ name: 'product_shop_id_id_idx', properties: ['shop', 'id'] })
@Check({ name: 'product_price_from_non_negative', expression: 'price_from >= 0' })
export class Product {
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

  @OneToMany(() => Sku, (sku) => sku.product, { orderBy: { id: 'asc' } })
  skus = new Collection<Sku>(this);

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
