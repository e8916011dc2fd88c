import { Entity, Property, OneToOne } from '@mikro-orm/decorators/legacy';
import { EntityName, PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';

/** Optional shop profile, keyed by its shop. Absent fields stay absent in responses. */
@Entity()
export class ShopProfile {
  declare [EntityName]?: 'ShopProfile';
  [PrimaryKeyProp]?: 'shop';

  @OneToOne(() => Shop, { owner: true, primary: true, deleteRule: 'cascade' })
  shop!: Rel<Shop>;

  @Property({ length: 500 })
  logoUrl!: string;

  @Property({ length: 2000, nullable: true })
  description?: string | null;

  @Property({ length: 500, nullable: true })
  bannerUrl?: string | null;

  @Property({ length: 40, nullable: true })
  contactPhone?: string | null;

  @Property({ length: 300, nullable: true })
  address?: string | null;

  @Property({ columnType: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}
