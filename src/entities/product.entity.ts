import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Enum, Index } from '@mikro-orm/decorators/legacy';
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

@Entity()
@Index({ properties: ['status', 'category'] })
@Index({ properties: ['status', 'priceFrom'] })
export class Product {
  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop, { index: true })
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
