import { Entity, PrimaryKey, Property, ManyToOne, Index, Trigger } from '@mikro-orm/decorators/legacy';
import { EntityName, type Rel } from '@mikro-orm/core';
import { sqlTrigger } from './sql-trigger.js';

/**
 * A node of the category tree. `path` is the materialized path of ids (`/1/7/19/`), so a subtree is
 * one indexed prefix match instead of a recursive walk.
 */
@Entity()
@Index({ name: 'category_parent_id_position_idx', properties: ['parent', 'position', 'id'] })
// Any change of the tree may change a listing filter's subtree: the catalog version moves (see CatalogVersion).
@Trigger(sqlTrigger('create trigger category_catalog_version after insert or update or delete or truncate on category for each statement execute function catalog_version_bump()'))
// Keyword search (migration Search): a rename or move reaches the search documents of its subtree's
// products (they hold the names of their whole category path), and the suggestions.
@Trigger(sqlTrigger(`create trigger category_search_document after update of name, path on category
    for each row when (old.name is distinct from new.name or old.path is distinct from new.path) execute function search_document_refresh()`))
@Trigger(sqlTrigger('create trigger category_search_suggestion after insert or update of name or delete on category for each row execute function search_suggestion_sync()'))
export class Category {
  declare [EntityName]?: 'Category';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Category, { nullable: true })
  parent?: Rel<Category> | null;

  @Property({ length: 80 })
  name!: string;

  @Property({ length: 80, unique: true })
  slug!: string;

  @Property()
  depth!: number;

  // A subtree is the byte range of its path prefix: `text_pattern_ops` lets the index serve `~>=~`/`~<~`.
  // MikroORM has no option for an operator class: the raw definition creates it, and the schema
  // comparator then matches the index by name only.
  @Index({ name: 'category_path_prefix_idx', expression: 'create index "category_path_prefix_idx" on "category" ("path" text_pattern_ops)' })
  @Property({ length: 200 })
  path!: string;

  @Property()
  position!: number;
}
