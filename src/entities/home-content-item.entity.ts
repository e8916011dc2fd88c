import { Entity, PrimaryKey, Property, Enum, Unique, Check, Trigger } from '@mikro-orm/decorators/legacy';
import { sqlTrigger } from './sql-trigger.js';
import { EntityName } from '@mikro-orm/core';

/** The four home content lists; the values are also the JSON keys and the `{kind}` of the admin route. */
export enum ContentKind {
  Banners = 'banners',
  Promos = 'promos',
  QuickLinks = 'quick_links',
  FloorAdverts = 'floor_adverts',
}

@Entity()
// Every process keeps the storefront's home content until it hears of a change (migration HomeContentNotify).
@Trigger(sqlTrigger('create trigger home_content_item_changed after insert or update or delete or truncate on home_content_item for each statement execute function mf_home_content_changed()'))
// One item per position of a list. The migration made it a unique index, not a constraint (same
// enforcement), and MikroORM makes every plain `@Unique` a constraint: the raw definition creates
// the index, and the schema comparator then matches it by name only.
@Unique({
  name: 'home_content_item_kind_position_unique',
  expression: 'create unique index "home_content_item_kind_position_unique" on "home_content_item" ("kind", "position")',
})
@Check({ name: 'home_content_item_position_non_negative', expression: 'position >= 0' })
export class HomeContentItem {
  declare [EntityName]?: 'HomeContentItem';

  @PrimaryKey()
  id!: number;

  @Enum({ items: () => ContentKind })
  kind!: ContentKind;

  @Property()
  position!: number;

  @Property()
  active!: boolean;

  @Property({ length: 120 })
  title!: string;

  @Property({ length: 300, nullable: true })
  subtitle?: string | null;

  @Property({ length: 500, nullable: true })
  imageUrl?: string | null;

  /** A storefront route such as `/products/12`; validated against real objects on replace. */
  @Property({ length: 300 })
  destination!: string;
}
