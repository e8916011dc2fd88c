import { Entity, PrimaryKey, Property, Enum, Index, Unique } from '@mikro-orm/decorators/legacy';
import { EntityName } from '@mikro-orm/core';

/** What a suggestion leads to. Values are the REST spellings. */
export enum SuggestionKind {
  Brand = 'brand',
  Category = 'category',
  Product = 'product',
}

/**
 * The names a search box completes: every brand and category, and every published product. Written
 * only by the `search_suggestion_sync` trigger on those tables (migration Search), so it is always in
 * step with them. `norm` is the lower-cased name with its spaces collapsed; completions are prefix
 * ranges on it, kind by kind (src/services/catalog/search/suggestions.ts).
 */
@Entity()
@Unique({ name: 'search_suggestion_kind_ref_id_unique', properties: ['kind', 'refId'] })
// A prefix is a byte range on `norm` (`~>=~`/`~<~`): `text_pattern_ops`, which MikroORM can only write raw.
@Index({ name: 'search_suggestion_prefix_idx', expression: 'create index "search_suggestion_prefix_idx" on "search_suggestion" ("kind", "norm" text_pattern_ops)' })
export class SearchSuggestion {
  declare [EntityName]?: 'SearchSuggestion';

  @PrimaryKey()
  id!: number;

  @Enum({ items: () => SuggestionKind })
  kind!: SuggestionKind;

  /** The brand, category or product id. */
  @Property()
  refId!: number;

  @Property({ length: 200 })
  text!: string;

  @Property({ length: 200 })
  norm!: string;
}
