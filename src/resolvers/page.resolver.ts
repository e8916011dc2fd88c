import { FieldResolver, Resolver, Root } from 'type-graphql';
import type { Page } from '../shared/pagination.js';
import { PageInterface } from './types/page.types.js';

/** The field every page type gets from the `Page` interface, computed from the page the service answered. */
@Resolver(() => PageInterface)
export class PageResolver {
  @FieldResolver(() => Boolean)
  hasNextPage(@Root() page: Page<unknown>): boolean {
    return page.page * page.pageSize < page.total;
  }
}
