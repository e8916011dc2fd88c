import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';

/**
 * The one pagination contract as a GraphQL type: `class FooPage extends PageType(FooType) {}` under
 * `@ObjectType('FooPage')`. Same fields as the REST list body.
 */
export function PageType<T extends object>(itemType: ClassType<T>) {
  @ObjectType()
  abstract class Page {
    @Field(() => [itemType]) items!: T[];
    @Field(() => Int) page!: number;
    @Field(() => Int) pageSize!: number;
    @Field(() => Int) total!: number;
  }
  return Page;
}

/** The page arguments of every list query; a list with filters extends it (`class FooListArgs extends PageArgs`). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'From 1 (default 1)' }) page?: number | null;
  @Field(() => Int, { nullable: true, description: 'Default 20, at most 100' }) pageSize?: number | null;
}
