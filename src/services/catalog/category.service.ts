import { sql, type Expression } from 'kysely';
import { notFound } from '../../errors.js';
import { BASE_CURRENCY } from '../../currency.js';
import type { ServiceContext } from '../../shared/context.js';
import { parseInput, idParam } from '../../shared/validate.js';
import { typedSql } from '../../db/typed-sql.js';
import { toCategoryView, type CategoryNode, type CategoryView, type CurrencyView } from './catalog-views.js';
import { refusals } from '../../error-codes.js';

/**
 * SQL condition: category `c` lies in the subtree of category `root` (itself included). A path ends
 * with '/', and '0' is the byte right after '/', so the subtree is exactly the range
 * [root.path, root.path without its last '/' + '0'). Written with the pattern operators, the range
 * is served by the text_pattern_ops index on `path` even though the root is only known at run time
 * (where `like root.path || '%'` could not use it).
 */
export const inSubtree = (path: Expression<string>, rootPath: Expression<string>) =>
  sql<boolean>`${path} ~>=~ ${rootPath} and ${path} ~<~ (left(${rootPath}, -1) || '0')`;

/** Builds the nested tree from rows ordered by depth: each node under its parent, in display order. */
function nest(rows: CategoryView[]): CategoryNode[] {
  const nodes = new Map<number, CategoryNode>();
  const roots: CategoryNode[] = [];
  for (const row of rows) {
    const node: CategoryNode = { ...row, children: [] };
    nodes.set(node.id, node);
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

const CATEGORY = ['id', 'parent', 'name', 'slug', 'depth', 'path', 'position'] as const;

/** The whole category tree: top-level nodes with their descendants. */
export async function categoryTree(ctx: ServiceContext): Promise<{ items: CategoryNode[] }> {
  const rows = await typedSql(ctx.em).selectFrom('Category').select(CATEGORY).orderBy('depth').orderBy('position').orderBy('id').execute();
  return { items: nest(rows.map(toCategoryView)) };
}

export const categorySubtreeRefusals = refusals('NOT_FOUND');

/** One category with its whole subtree, in one query (the range on the path index, see `inSubtree`). */
export async function categorySubtree(ctx: ServiceContext, categoryId: unknown): Promise<CategoryNode> {
  const id = parseInput(idParam, categoryId);
  const rows = await typedSql(ctx.em)
    .selectFrom('Category as root')
    .innerJoin('Category as c', (join) => join.on((eb) => inSubtree(eb.ref('c.path'), eb.ref('root.path'))))
    .select(CATEGORY.map((column) => `c.${column}` as const))
    .where('root.id', '=', id)
    .orderBy('c.depth')
    .orderBy('c.position')
    .orderBy('c.id')
    .execute();
  if (rows.length === 0) throw notFound('Category', { id });
  return nest(rows.map(toCategoryView))[0];
}

/** The platform's one base currency; every amount in the API is in its minor units. */
export function currency(_ctx: ServiceContext): Promise<CurrencyView> {
  const view: CurrencyView = { ...BASE_CURRENCY };
  return Promise.resolve(view);
}
