import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Brands form one ordered list, replaced as a whole by a platform admin. */
@Entity()
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
