import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';

/** The list contract over GraphQL: `page` from 1, `pageSize` default 20, at most 100 (checked by the service). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true }) page?: number | null;
  @Field(() => Int, { nullable: true }) pageSize?: number | null;
}

/** Page args as the service's query: an omitted or null value takes the service's default. */
export const pageQuery = ({ page, pageSize }: PageArgs) => ({ page: page ?? undefined, pageSize: pageSize ?? undefined });

/** A page of `itemType`: `class XPage extends PageOf(X) {}` under `@ObjectType('XPage')`. */
export function PageOf<T extends object>(itemType: ClassType<T>) {
  @ObjectType()
  abstract class Page {
    @Field(() => [itemType]) items!: T[];
    @Field(() => Int) page!: number;
    @Field(() => Int) pageSize!: number;
    @Field(() => Int) total!: number;
  }
  return Page;
}
