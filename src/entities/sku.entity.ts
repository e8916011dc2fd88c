import { Entity, PrimaryKey, Property, ManyToOne, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Rel } from '@mikro-orm/core';
import { Product } from './product.entity.js';

/** A sellable variant. Stock only changes through guarded conditional updates (never below zero). */
@Entity()
@Check({ name: 'sku_stock_non_negative', expression: 'stock >= 0' })
@Check({ name: 'sku_price_non_negative', expression: 'price >= 0' })
export class Sku {
  declare [EntityName]?: 'Sku';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Product, { index: true, deleteRule: 'cascade' })
  product!: Rel<Product>;

  /** Variant label shown to buyers, e.g. "Red / M". */
  @Property({ length: 120 })
  name!: string;

  /** Unit price in minor units of the base currency. */
  @Property()
  price!: number;

  @Property()
  stock!: number;
}
