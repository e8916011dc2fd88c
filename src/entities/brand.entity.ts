import { Entity, PrimaryKey, Property, Check, Unique } from '@mikro-orm/decorators/legacy';
import { EntityName } from '@mikro-orm/core';

/**
 * Brands form one ordered list, replaced as a whole by a platform admin. One brand per position; the
 * unique constraint is deferred to commit so a reorder can move brands in place.
 */
@Entity()
@Unique({ name: 'brand_position_unique', properties: ['position'], deferMode: 'deferred' })
@Check({ name: 'brand_position_non_negative', expression: 'position >= 0' })
export class Brand {
  declare [EntityName]?: 'Brand';

  @PrimaryKey()
  id!: number;

  @Property({ length: 80 })
  name!: string;

  @Property({ length: 500, nullable: true })
  logoUrl?: string | null;

  @Property()
  position!: number;
}
