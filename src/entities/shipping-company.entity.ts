import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { EntityName, PrimaryKeyProp, type Opt } from '@mikro-orm/core';

/** Dictionary of carriers shipments may name, seeded by the migration. Inactive ones are kept for history. */
@Entity()
export class ShippingCompany {
  declare [EntityName]?: 'ShippingCompany';
  [PrimaryKeyProp]?: 'code';

  @PrimaryKey({ length: 20 })
  code!: string;

  @Property({ length: 80 })
  name!: string;

  @Property()
  active: boolean & Opt = true;

  @Property()
  position: number & Opt = 0;
}
