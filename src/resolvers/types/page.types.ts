import { ArgsType, Field, Int, InterfaceType, ObjectType, type ClassType } from 'type-graphql';

/**
 * The one pagination contract of every list, as the REST list body has it (`page`, `page_size`,
 * `total`), plus `hasNextPage` for a client that loads page after page (infinite scroll).
 */
@InterfaceType('Page', {
  // Only the page types the schema reaches are emitted, not the abstract base of each (PageType).
  autoRegisterImplementations: false,
  description: 'A page of a list: `items` (on each implementing type), its position and the size of the whole list' })
export abstract class PageInterface {
  @Field(() => Int, { description: 'The page, from 1' }) page!: number;
  @Field(() => Int, { description: 'Items per page asked for (the last page may hold fewer)' }) pageSize!: number;
  @Field(() => Int, { description: 'Items of the whole list' }) total!: number;
  @Field({ description: 'Whether a page after this one holds items' }) hasNextPage!: boolean;
}

/**
 * A page type of one item type: `@ObjectType('FooPage') class FooPage extends PageType(FooType) {}`.
 * It implements `Page`, whose `hasNextPage` is resolved once for every page type (PageResolver).
 */
export function PageType<T extends object>(itemType: ClassType<T>) {
  @ObjectType({ implements: PageInterface })
  abstract class Page extends PageInterface {
    @Field(() => [itemType]) items!: T[];
  }
  return Page;
}

/** The page arguments of every list query; a list with filters extends it (`class FooListArgs extends PageArgs`). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'From 1 (default 1)' }) page?: number | null;
  @Field(() => Int, { nullable: true, description: 'Default 20, at most 100' }) pageSize?: number | null;
}
