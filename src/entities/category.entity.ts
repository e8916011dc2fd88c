import { Entity, PrimaryKey, Property, ManyToOne, Index } from '@mikro-orm/decorators/legacy';
import type { Rel } from '@mikro-orm/core';

/**
 * A node of the category tree. `path` is the materialized path of ids (`/1/7/19/`), so a subtree is
 * one indexed prefix match instead of a recursive walk.
 */
@Entity()
@Index({ name: 'category_parent_id_position_idx', properties: ['parent', 'position', 'id'] })
export class Category {
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

  @Index({ name: 'category_path_prefix_idx', expression: 'create index "category_path_prefix_idx" on "category" ("path" text_pattern_ops)' })
  @Property({ length: 200 })
  path!: string;

  @Property()
  position!: number;
}
