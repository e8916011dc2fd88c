import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

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

/** Page arguments as a service's input: an omitted or null value takes the service's default. */
export const pageQuery = ({ page, pageSize }: { page?: number | null; pageSize?: number | null }) => ({
  page: page ?? undefined,
  pageSize: pageSize ?? undefined,
});
