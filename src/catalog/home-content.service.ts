import { AppError, notFound } from '../errors.js';
import { ContentKind } from '../entities/home-content-item.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireAdmin } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { parseInput, z } from '../shared/validate.js';
import { intArray, textArray } from '../db/sql.js';
import { queryRows } from '../fast-paths/prepared-statements.js';
import { lockOrderedList } from './catalog-views.js';

export interface ContentItemView {
  id: number;
  position: number;
  active: boolean;
  title: string;
  subtitle?: string;
  imageUrl?: string;
  /** A storefront route, e.g. `/products/12`. */
  destination: string;
}

/** The four lists, every key present even when its list is empty. */
export interface HomeContentView {
  banners: ContentItemView[];
  promos: ContentItemView[];
  quickLinks: ContentItemView[];
  floorAdverts: ContentItemView[];
}

const KINDS = Object.values(ContentKind);
const listKey = (kind: ContentKind) => kind.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof HomeContentView;

const ContentItemInput = z.strictObject({
  title: z.string().trim().min(1).max(120),
  subtitle: z.string().trim().max(300).nullish(),
  imageUrl: z.httpUrl().max(500).nullish(),
  destination: z.string().max(300),
  active: z.boolean().nullish(),
  // Ignored, so a list read from the admin route can be sent back as is: ids are reassigned and
  // positions are the submitted order.
  id: z.unknown().optional(),
  position: z.unknown().optional(),
});
const ReplaceContentInput = z.strictObject({ items: z.array(ContentItemInput).max(100) });

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
  return id <= 2147483647 ? { table: match[1] as 'products' | 'categories' | 'brands', id } : undefined;
}

/**
 * Which of the referenced objects exist, in one query. A product link needs a published product:
 * the storefront answers 404 for any other, so it would not be a real route.
 */
async function existingReferences(ctx: ServiceContext, refs: Reference[]): Promise<Set<string>> {
  const ids = (table: string) => intArray(refs.flatMap((r) => (r.table === table && 'id' in r ? [r.id] : [])));
  const slugs = textArray(refs.flatMap((r) => (r.table === 'shops' ? [r.slug] : [])));
  const rows = await ctx.em.execute<{ ref: string }[]>(
    `select '/products/' || id as ref from product where id = any(?::int[]) and status = 'published'
     union all select '/categories/' || id from category where id = any(?::int[])
     union all select '/brands/' || id from brand where id = any(?::int[])
     union all select '/shops/' || slug from shop where slug = any(?::text[])`,
    [ids('products'), ids('categories'), ids('brands'), slugs],
  );
  return new Set(rows.map((r) => r.ref));
}

const MISSING = { products: 'no published product', categories: 'no category', brands: 'no brand', shops: 'no shop' };
const referenceKey = (r: Reference) => ('id' in r ? `/${r.table}/${r.id}` : `/shops/${r.slug}`);

async function validateDestinations(ctx: ServiceContext, destinations: string[]): Promise<void> {
  const problems: { field: string; message: string }[] = [];
  const refs: { index: number; ref: Reference }[] = [];
  destinations.forEach((destination, index) => {
    const ref = parseDestination(destination);
    if (ref === undefined) {
      problems.push({ field: `items.${index}.destination`, message: `"${destination}" is not a storefront route` });
    } else if (ref) refs.push({ index, ref });
  });
  const found = refs.length > 0 ? await existingReferences(ctx, refs.map((r) => r.ref)) : new Set<string>();
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

function toItemView(row: any): ContentItemView {
  return {
    id: row.id,
    position: row.position,
    active: row.active,
    title: row.title,
    subtitle: row.subtitle ?? undefined,
    imageUrl: row.image_url ?? undefined,
    destination: row.destination,
  };
}

const ITEM_COLUMNS = 'id, kind, position, active, title, subtitle, image_url, destination';

async function readContent(ctx: ServiceContext, activeOnly: boolean): Promise<HomeContentView> {
  const rows = await queryRows(
    ctx.em,
    `select ${ITEM_COLUMNS} from home_content_item ${activeOnly ? 'where active' : ''} order by kind, position`,
  );
  const out: HomeContentView = { banners: [], promos: [], quickLinks: [], floorAdverts: [] };
  for (const row of rows) out[listKey(row.kind)].push(toItemView(row));
  return out;
}

/** The storefront home: the active items of each kind, in position order. */
export function homeContent(ctx: ServiceContext): Promise<HomeContentView> {
  return readContent(ctx, true);
}

/** Every item of every kind, inactive ones included. */
export function adminContent(ctx: ServiceContext): Promise<HomeContentView> {
  requireAdmin(ctx);
  return readContent(ctx, false);
}

function parseKind(kind: unknown): ContentKind {
  if (typeof kind === 'string' && (KINDS as string[]).includes(kind)) return kind as ContentKind;
  throw notFound('Content kind', { kind, allowed: KINDS });
}

/**
 * Replaces one kind's list with the submitted ordered list, in one transaction. Positions become
 * 0..n-1 in the submitted order. Every destination must be a real storefront route; one bad item
 * rejects the whole list and nothing changes.
 */
export async function replaceHomeContent(
  ctx: ServiceContext,
  kindParam: unknown,
  input: unknown,
): Promise<{ kind: ContentKind; items: ContentItemView[] }> {
  requireAdmin(ctx);
  const kind = parseKind(kindParam);
  const { items } = parseInput(ReplaceContentInput, input);
  return inTransaction(ctx, async (tx) => {
    await lockOrderedList(tx.em, kind);
    await validateDestinations(tx, items.map((i) => i.destination));
    await tx.em.execute('delete from home_content_item where kind = ?', [kind]);
    const rows = items.map((item, position) => ({
      position,
      active: item.active ?? true,
      title: item.title,
      subtitle: item.subtitle || null,
      image_url: item.imageUrl ?? null,
      destination: item.destination,
    }));
    const stored =
      rows.length === 0
        ? []
        : await tx.em.execute(
            `insert into home_content_item (kind, position, active, title, subtitle, image_url, destination)
             select ?, x.position, x.active, x.title, x.subtitle, x.image_url, x.destination
               from jsonb_to_recordset(?::jsonb) as x(position int, active boolean, title text, subtitle text, image_url text, destination text)
              order by x.position
             returning ${ITEM_COLUMNS}`,
            [kind, JSON.stringify(rows)],
          );
    return { kind, items: stored.map(toItemView).sort((a, b) => a.position - b.position) };
  });
}
