import { Entity, PrimaryKey, Property, Enum, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName } from '@mikro-orm/core';

/** The four home content lists; the values are also the JSON keys and the `{kind}` of the admin route. */
export enum ContentKind {
  Banners = 'banners',
  Promos = 'promos',
  QuickLinks = 'quick_links',
  FloorAdverts = 'floor_adverts',
}

@Entity()
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
