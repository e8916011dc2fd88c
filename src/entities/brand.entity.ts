import { Entity, PrimaryKey, Property, Check, Unique, Trigger } from '@mikro-orm/decorators/legacy';
import { EntityName } from '@mikro-orm/core';
import { sqlTrigger } from './sql-trigger.js';

/**
 * Brands form one ordered list, replaced as a whole by a platform admin. One brand per position; the
 * unique constraint is deferred to commit so a reorder can move brands in place.
 */
@Entity()
@Unique({ name: 'brand_position_unique', properties: ['position'], deferMode: 'deferred' })
@Check({ name: 'brand_position_non_negative', expression: 'position >= 0' })
// Keyword search (migration Search): a rename reaches its products' search documents and the suggestions.
@Trigger(sqlTrigger(`create trigger brand_search_document after update of name on brand
    for each row when (old.name is distinct from new.name) execute function search_document_refresh()`))
@Trigger(sqlTrigger('create trigger brand_search_suggestion after insert or update of name or delete on brand for each row execute function search_suggestion_sync()'))
export class Brand {
  declare [EntityName]?: 'Brand';

  @PrimaryKey()
  id!: number;

  @Property({ length: 80 })
  name!: string;

  @Property({ length: 500, nullable: true })
  logoUrl?: string | null;

  @Property()
  position!: number;
}
