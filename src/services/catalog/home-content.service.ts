import { AppError, notFound } from '../../errors.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { ContentKind, HomeContentItem } from '../../entities/home-content-item.entity.js';
import { ProductStatus } from '../../entities/product.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { httpUrl, MAX_ID, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { typedSql } from '../../db/typed-sql.js';
import { homeContentItems } from './catalog.repository.js';
import { lockOrderedList } from './ordered-list-lock.js';
import { refusals } from '../../error-codes.js';
import { changeListenerOf, type ChangeListener } from '../../db/change-listener.js';
import { auditedRows } from '../../shared/audit.js';
import { id as viewId } from '../../shared/view-fields.js';

/** The views of the home content: REST publishes these schemas and GraphQL's types are made from them. */
export const ContentItemView = z.strictObject({
  id: viewId,
  position: z.number().int().min(0),
  active: z.boolean(),
  title: z.string(),
  subtitle: z.string().optional(),
  imageUrl: z.string().optional(),
  destination: z.string().describe('A storefront route, e.g. `/products/12`'),
});
export type ContentItemView = z.infer<typeof ContentItemView>;

/** The four lists, every key present even when its list is empty. */
export const HomeContentView = z
  .strictObject({
    banners: z.array(ContentItemView),
    promos: z.array(ContentItemView),
    quickLinks: z.array(ContentItemView),
    floorAdverts: z.array(ContentItemView),
  })
  .describe('The four home content lists, each in position order');
export type HomeContentView = z.infer<typeof HomeContentView>;

/** One kind's list, as replacing it answers (REST only: GraphQL's payload holds the items). */
export const ContentKindListView = z.strictObject({ kind: z.enum(ContentKind), items: z.array(ContentItemView) });
export type ContentKindListView = z.infer<typeof ContentKindListView>;

const KINDS = Object.values(ContentKind);
const listKey = (kind: ContentKind) => kind.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof HomeContentView;

const ContentItemInput = z.strictObject({
  title: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(120),
  subtitle: z.string().trim().max(300).nullish(),
  imageUrl: httpUrl().nullish(),
  destination: z.string().max(300),
  active: z.boolean().nullish(),
  // Ignored, so a list read from the admin route can be sent back as is: ids are reassigned and
  // positions are the submitted order.
  id: z.number().int().nullish(),
  position: z.number().int().nullish(),
});
export const ReplaceContentInput = z.strictObject({ items: z.array(ContentItemInput).max(100) });

/** Storefront routes without an object. */
const FIXED_ROUTES = new Set(['/', '/flash-sales', '/group-buys', '/points', '/coupons']);
const OBJECT_ROUTE = /^\/(products|categories|brands)\/([1-9]\d{0,9})$|^\/shops\/([A-Za-z0-9_-]{1,80})$/;

type Reference = { table: 'products' | 'categories' | 'brands'; id: number } | { table: 'shops'; slug: string };

/** The object a destination names, `null` for a fixed route, `undefined` when it is no storefront route. */
function parseDestination(destination: string): Reference | null | undefined {
  if (FIXED_ROUTES.has(destination)) return null;
  const match = OBJECT_ROUTE.exec(destination);
  if (!match) return undefined;
  if (match[3]) return { table: 'shops', slug: match[3] };
  const id = Number(match[2]);
  return id <= MAX_ID ? { table: match[1] as 'products' | 'categories' | 'brands', id } : undefined;
}

/**
 * Which of the referenced objects exist, in one query. A product link needs a published product:
 * the storefront answers 404 for any other, so it would not be a real route.
 */
async function existingReferences(em: EntityManager, refs: Reference[]): Promise<Set<string>> {
  const ids = (table: Reference['table']) => refs.flatMap((r) => (r.table === table && 'id' in r ? [r.id] : []));
  const slugs = refs.flatMap((r) => (r.table === 'shops' ? [r.slug] : []));
  const route = (prefix: string, column: 'id' | 'slug') => sql<string>`${sql.lit(prefix)} || ${sql.ref(column)}`.as('ref');
  const db = typedSql(em);
  const rows = await db
    .selectFrom('Product')
    .select(route('/products/', 'id'))
    .where((eb) => eb('id', '=', eb.fn.any(eb.val(ids('products')))))
    .where('status', '=', ProductStatus.Published)
    .unionAll(db.selectFrom('Category').select(route('/categories/', 'id')).where((eb) => eb('id', '=', eb.fn.any(eb.val(ids('categories'))))))
    .unionAll(db.selectFrom('Brand').select(route('/brands/', 'id')).where((eb) => eb('id', '=', eb.fn.any(eb.val(ids('brands'))))))
    .unionAll(db.selectFrom('Shop').select(route('/shops/', 'slug')).where((eb) => eb('slug', '=', eb.fn.any(eb.val(slugs)))))
    .execute();
  return new Set(rows.map((r) => r.ref));
}

const MISSING = { products: 'no published product', categories: 'no category', brands: 'no brand', shops: 'no shop' };
const referenceKey = (r: Reference) => ('id' in r ? `/${r.table}/${r.id}` : `/shops/${r.slug}`);

async function validateDestinations(em: EntityManager, destinations: string[]): Promise<void> {
  const problems: { field: string; message: string }[] = [];
  const refs: { index: number; ref: Reference }[] = [];
  destinations.forEach((destination, index) => {
    const ref = parseDestination(destination);
    if (ref === undefined) {
      problems.push({ field: `items.${index}.destination`, message: `"${destination}" is not a storefront route` });
    } else if (ref) refs.push({ index, ref });
  });
  const found = refs.length > 0 ? await existingReferences(em, refs.map((r) => r.ref)) : new Set<string>();
  for (const { index, ref } of refs) {
    if (!found.has(referenceKey(ref))) {
      problems.push({ field: `items.${index}.destination`, message: `${MISSING[ref.table]} at "${destinations[index]}"` });
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => a.field.localeCompare(b.field, undefined, { numeric: true }));
    throw new AppError('DESTINATION_INVALID', 400, `${problems[0].field}: ${problems[0].message}`, { problems });
  }
}

/** An item entity or a row of ITEM_COLUMNS. */
function toItemView(item: Pick<HomeContentItem, 'id' | 'position' | 'active' | 'title' | 'subtitle' | 'imageUrl' | 'destination'>): ContentItemView {
  return {
    id: item.id,
    position: item.position,
    active: item.active,
    title: item.title,
    subtitle: item.subtitle ?? undefined,
    imageUrl: item.imageUrl ?? undefined,
    destination: item.destination,
  };
}

/** The storefront's home is read on every visit (docs/performance.md): one prepared statement. */
async function readContent(ctx: ServiceContext, activeOnly: boolean): Promise<HomeContentView> {
  const rows = await homeContentItems.run(ctx.em, { activeOnly }, {});
  const out: HomeContentView = { banners: [], promos: [], quickLinks: [], floorAdverts: [] };
  for (const row of rows) out[listKey(row.kind)].push(toItemView(row));
  return out;
}

/** The channel the home content's trigger NOTIFYs (migration HomeContentNotify). */
export const HOME_CONTENT_CHANNEL = 'mallfront_home_content';

/** The storefront home as last read, and the generation of the process's listener it was read at. */
const kept = new WeakMap<ChangeListener, { generation: number; view: Promise<HomeContentView> }>();

/**
 * The storefront home: the active items of each kind, in position order. Read on every visit and
 * changed a few times a day, so a process keeps it until its listener hears of a change (issue 43,
 * src/db/change-listener.ts): no database round trip per request. Concurrent first reads share one
 * read. Without a listening connection (a replica's reads, a lost connection) it is read every time.
 */
export function homeContent(ctx: ServiceContext): Promise<HomeContentView> {
  const changes = changeListenerOf(ctx.em, HOME_CONTENT_CHANNEL);
  if (!changes?.live) return readContent(ctx, true);
  const last = kept.get(changes);
  if (last && last.generation === changes.generation) return last.view;
  const generation = changes.generation;
  const view = readContent(ctx, true).then(frozen);
  kept.set(changes, { generation, view });
  // A failed read is not kept: the next request reads again.
  view.catch(() => {
    if (kept.get(changes)?.view === view) kept.delete(changes);
  });
  return view;
}

/** Shared by every request that gets it: nobody may change it. */
function frozen(view: HomeContentView): HomeContentView {
  for (const list of Object.values(view)) {
    for (const item of list) Object.freeze(item);
    Object.freeze(list);
  }
  return Object.freeze(view);
}

/** Every item of every kind, inactive ones included. */
export function adminContent(ctx: ServiceContext): Promise<HomeContentView> {
  requirePlatformPermission(ctx, Permission.PlatformContentManage);
  return readContent(ctx, false);
}

function parseKind(kind: unknown): ContentKind {
  if (typeof kind === 'string' && (KINDS as string[]).includes(kind)) return kind as ContentKind;
  throw notFound('Content kind', { kind: String(kind), allowed: KINDS });
}

export const replaceHomeContentRefusals = refusals('DESTINATION_INVALID', 'NOT_FOUND');

/**
 * Replaces one kind's list with the submitted ordered list, in one transaction. Positions become
 * 0..n-1 in the submitted order. Every destination must be a real storefront route; one bad item
 * rejects the whole list and nothing changes.
 */
export async function replaceHomeContent(
  ctx: ServiceContext,
  kindParam: unknown,
  input: unknown,
): Promise<ContentKindListView> {
  requirePlatformPermission(ctx, Permission.PlatformContentManage);
  const kind = parseKind(kindParam);
  const { items } = parseInput(ReplaceContentInput, input);
  return inTransaction(ctx, async (tx) => {
    const { em } = tx;
    await lockOrderedList(em, kind);
    await validateDestinations(em, items.map((i) => i.destination));
    // Deleted first, in its own statement: the flush would insert before deleting, and the new
    // positions would meet the old ones in the (not deferred) unique index.
    await auditedRows(tx, { type: 'HomeContentItem', column: 'kind', value: kind }, () => em.nativeDelete(HomeContentItem, { kind }));
    const stored = items.map((item, position) =>
      em.create(HomeContentItem, {
        kind,
        position,
        active: item.active ?? true,
        title: item.title,
        subtitle: item.subtitle || null,
        imageUrl: item.imageUrl ?? null,
        destination: item.destination,
      }),
    );
    await em.flush();
    return { kind, items: stored.map(toItemView) };
  }).finally(() => {
    // After the commit (or a failure): this process reads the home content again at once; the
    // others when the trigger's notification reaches them.
    changeListenerOf(ctx.em, HOME_CONTENT_CHANNEL)?.changed();
  });
}
