import { Entity, PrimaryKey, Property, Check } from '@mikro-orm/decorators/legacy';

/**
 * Brands form one ordered list, replaced as a whole by a platform admin. One brand per position; the
 * unique constraint is deferred to commit (in the migration) so a reorder can move brands in place.
 */
@Entity()
@Check({ name: 'brand_position_non_negative', expression: 'position >= 0' })
export class Brand {
  @PrimaryKey()
  id!: number;

  @Property({ length: 80 })
  name!: string;

  @Property({ length: 500, nullable: true })
  logoUrl?: string | null;

  @Property()
  position!: number;
}
