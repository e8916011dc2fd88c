import { Entity, PrimaryKey, Property, OneToOne, Index, Trigger } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { ShopProfile } from './shop-profile.entity.js';
import { sqlTrigger } from './sql-trigger.js';

/** A seller in the mall. Its optional profile (logo, description...) lives in its own table. */
@Entity()
@Index({ name: 'shop_name_id_idx', properties: ['name', 'id'] })
// Keyword search (migration Search): a rename reaches its products' search documents.
@Trigger(sqlTrigger(`create trigger shop_search_document after update of name on shop
    for each row when (old.name is distinct from new.name) execute function search_document_refresh()`))
export class Shop {
  declare [EntityName]?: 'Shop';

  @PrimaryKey()
  id!: number;

  @Property({ length: 80, unique: true })
  slug!: string;

  @Property({ length: 120 })
  name!: string;

  @OneToOne(() => ShopProfile, (profile) => profile.shop, { nullable: true })
  profile?: Rel<ShopProfile> | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
