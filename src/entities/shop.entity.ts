import { Entity, PrimaryKey, Property, OneToOne, Index, Trigger, Enum, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { ShopProfile } from './shop-profile.entity.js';
import { sqlTrigger } from './sql-trigger.js';

/**
 * active -> suspended (with a reason) -> active (reinstated); active | suspended -> closed (final).
 * Only src/services/shops/shop-lifecycle.ts moves it (test/ownership.test.ts). While a shop is not
 * active its published products are `held` (ProductStatus), so no storefront read shows them.
 */
export enum ShopStatus {
  Active = 'active',
  Suspended = 'suspended',
  Closed = 'closed',
}

/** A seller in the mall. Its optional profile (logo, description...) lives in its own table. */
@Entity()
@Check({ name: 'shop_suspended_has_reason', expression: "status <> 'suspended' or status_reason is not null" })
@Index({ name: 'shop_name_id_idx', properties: ['name', 'id'] })
// Keyword search (migration Search): a rename reaches its products' search documents.
@Trigger(sqlTrigger(`create trigger shop_search_document after update of name on shop
    for each row when (old.name is distinct from new.name) execute function search_document_refresh()`))
// Home content kept by every process may link to the shop (migration ShopStates): a state change is heard as a content change.
@Trigger(sqlTrigger(`create trigger shop_status_home_content after update of status on shop
    for each row when (old.status is distinct from new.status) execute function mf_home_content_changed()`))
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

  @Enum({ items: () => ShopStatus })
  status: ShopStatus & Opt = ShopStatus.Active;

  /** Why the platform suspended it (kept after reinstatement or closing: the last reason given). */
  @Property({ length: 500, nullable: true })
  statusReason?: string | null;

  /** When its status last changed (null: active since it was created). */
  @Property({ columnType: 'timestamptz', nullable: true })
  statusChangedAt?: Date | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
