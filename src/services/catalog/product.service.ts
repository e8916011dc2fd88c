import { AppError, notFound } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { parseInput, idParam, z } from '../../shared/validate.js';
import { pageFields, pageOffset, type Page } from '../../shared/pagination.js';
import { checkPriceRange, filterParts, firstMatching, listingFilter, listingFilterFields, type ListingFilter } from './listing-filter.js';
import type { SqlPart } from './search/product-search.js';
import { soldCountOf } from './sold-count.js';
import { hasTotal, rememberTotal, totalAt } from './listing-total-cache.js';
import { pageOfRanking, rankingOf, rememberRanking, type Ranking } from './sales-ranking-cache.js';
import { intArray } from '../../db/sql.js';
import { queryRows } from '../../db/prepared-statements.js';
import { ratingCountsOf, ratingSummaryOf } from './rating-summary.js';
import { withFavoritedProducts } from '../accounts/favorites.service.js';
import type { Database } from '../../db/typed-sql.js';
import {
  CATEGORY_COLUMNS, PRODUCT_COLUMNS, PROFILE_COLUMNS, skusJsonOf, toBrandView, toCategoryView, toProductView, toProfileView,
  type ProductColumns, type ProductDetailView, type ProductView, type ProfileColumns, type ShopView, type SkuColumns, type SkuView,
} from './catalog-views.js';

/**
 * Sort keys of the public listing, each with its default direction. `sales` sorts by sold_count,
 * best sellers first: it is aggregated for the filtered candidates only (see `listProducts`).
 */
const SORTS = {
  price: { key: 'p.price_from', defaultOrder: 'asc' },
  sales: { key: soldCountOf('p.id'), defaultOrder: 'desc' },
} as const satisfies Record<string, { key: string; defaultOrder: Order }>;
type Sort = keyof typeof SORTS;
type Order = 'asc' | 'desc';
const ORDERS: readonly Order[] = ['asc', 'desc'];

export const ListProductsInput = z
  .strictObject({
    ...listingFilterFields,
    sort: z.string().optional(),
    order: z.string().optional(),
    ...pageFields,
  })
  .superRefine(checkPriceRange);

/** A refused parameter's value as the error repeats it (a repeated query parameter arrives as a list). */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** `sort` and `order` first, so an unsupported value is SORT_UNSUPPORTED whatever else is wrong. */
function listingOrder(input: unknown): { key: string; direction: Order } {
  const { sort, order } = (input ?? {}) as { sort?: unknown; order?: unknown };
  if (sort !== undefined && !(typeof sort === 'string' && Object.hasOwn(SORTS, sort))) {
    throw new AppError('SORT_UNSUPPORTED', 400, `sort must be one of: ${Object.keys(SORTS).join(', ')}`, {
      parameter: 'sort', value: asText(sort), allowed: Object.keys(SORTS),
    });
  }
  if (order !== undefined && !ORDERS.includes(order as Order)) {
    throw new AppError('SORT_UNSUPPORTED', 400, 'order must be asc or desc', { parameter: 'order', value: asText(order), allowed: ORDERS });
  }
  // Default: newest first (ids grow with creation), or with a keyword most relevant first (see
  // `relevancePage`); `order` alone flips it. Ties break on id, in the same direction, so pages
  // never overlap and one index serves both directions.
  if (sort === undefined) return { key: 'p.id', direction: (order as Order | undefined) ?? 'desc' };
  const { key, defaultOrder } = SORTS[sort as Sort];
  return { key, direction: (order as Order | undefined) ?? defaultOrder };
}

/** What a listing may bring along with each product (GraphQL asks for what its query selects). */
export interface ListingIncludes {
  skus?: boolean;
  shopProfiles?: boolean;
}

/** A listed product; `skus` and `shop.profile` are present when included (`profile` undefined: the shop has none). */
export type ListedProduct = ProductView & { shop: ShopView; skus?: SkuView[] };

/**
 * Published products, one page, in one statement: the page (it stops reading at its limit on the
 * matching index) with shop and sold_count, and the catalog version; with `include`, each product's
 * SKUs (a JSON list) and its shop's profile too. The total comes from `listing-total-cache.ts` when it
 * was counted at that same version, else from a count in the same statement (first listing of a
 * filter) or a second one (after a catalog change). `sort=sales` reads its page by the ranking
 * remembered in `sales-ranking-cache.ts` (see `rankedPage`), and so does a keyword's relevance order.
 */
export async function listProducts(ctx: ServiceContext, input: unknown = {}, include: ListingIncludes = {}): Promise<Page<ListedProduct>> {
  const { key, direction } = listingOrder(input);
  const q = parseInput(ListProductsInput, input);
  const { rows, total } = await firstMatching(q.q, async (match) => {
    const listing: Listing = {
      filter: listingFilter(filterParts(q, match)), direction, offset: pageOffset(q), size: q.pageSize, include, replan: match !== undefined,
    };
    const byRelevance = match && q.sort === undefined ? match.rank : undefined;
    return (
      ((q.sort === 'sales' || byRelevance) && (await rankedPage(ctx, listing, byRelevance))) ||
      (byRelevance ? await relevancePage(ctx, listing, byRelevance) : await orderedPage(ctx, listing, key))
    );
  });
  const items = rows.map((row): ListedProduct => {
    const product: ListedProduct = { ...toProductView(row), soldCount: row.sold_count };
    if (include.skus) product.skus = row.skus;
    if (include.shopProfiles) product.shop = { ...product.shop, profile: toProfileView(row, row.shop_id) };
    return product;
  });
  return { items: await withFavoritedProducts(ctx, items), page: q.page, pageSize: q.pageSize, total };
}

interface Listing {
  filter: ListingFilter;
  direction: Order;
  offset: number;
  size: number;
  include: ListingIncludes;
  /** Plan the statements with their values on each call (a keyword: see `queryRows`). */
  replan: boolean;
}

/** A page's product with its sold_count, and its SKUs and shop profile columns when included. */
type ListedRow = ProductColumns & ProfileColumns & { sold_count: number; skus?: SkuColumns[] };

/** A page statement's rows: `versions left join page on true`, so an empty page is one row whose page columns are null. */
type PageRow<Versions, Page> = Versions & (Page | { id: null });

/** The rows of the page, without the row an empty page leaves. */
const pageRows = <R extends { id: number | null }>(rows: R[]) => rows.filter((row): row is Extract<R, { id: number }> => row.id !== null);

/** The catalog version as the page statement read it (see listing-total-cache.ts). */
type CatalogVersion = Database['CatalogVersion']['n'];

/** Columns a listing row carries beyond the product and shop, on the `page` rows. */
function includedColumns(include: ListingIncludes): string {
  return `${include.skus ? `, ${skusJsonOf('page.id')} as skus` : ''} ${include.shopProfiles ? `, ${PROFILE_COLUMNS}` : ''}`;
}

const profileJoin = (include: ListingIncludes) => (include.shopProfiles ? 'left join shop_profile pr on pr.shop_id = page.shop_id' : '');

/**
 * A page ordered by `key` in SQL. For `sort=sales` (only when its ranking keeps moving) each
 * candidate's sold_count is one index-only lookup; the candidates are ranked by id first and only the
 * page's rows are read.
 */
async function orderedPage(ctx: ServiceContext, listing: Listing, key: string): Promise<{ rows: ListedRow[]; total: number }> {
  const { filter, direction, include } = listing;
  const countSql = `select count(*)::int from product p where ${filter.sql}`;
  const withCount = !hasTotal(ctx.em, filter.key);
  const bySales = key === SORTS.sales.key;
  const ordered = `order by sort_key ${direction}, p.id ${direction} limit ? offset ?`;
  const page = bySales
    ? `select ${PRODUCT_COLUMNS}, r.sort_key
         from (select p.id, ${key} as sort_key from product p where ${filter.sql} ${ordered}) r
         join product p on p.id = r.id join shop s on s.id = p.shop_id`
    : `select ${PRODUCT_COLUMNS}, ${key} as sort_key from product p join shop s on s.id = p.shop_id where ${filter.sql} ${ordered}`;
  const rows = await queryRows<PageRow<{ catalog_version: CatalogVersion; total?: number }, ListedRow & { sort_key: number }>>(
    ctx.em,
    `with page as (${page})
     select v.n as catalog_version, ${withCount ? `(${countSql}) as total,` : ''} page.*,
            ${bySales ? 'page.sort_key' : soldCountOf('page.id')} as sold_count ${includedColumns(include)}
       from (select n from catalog_version where id = 1) v left join page on true ${profileJoin(include)}
      order by page.sort_key ${direction}, page.id ${direction}`,
    [...filter.params, listing.size, listing.offset, ...(withCount ? filter.params : [])],
    { replan: listing.replan },
  );
  const version = rows[0].catalog_version;
  let total = withCount ? rows[0].total : totalAt(ctx.em, filter.key, version);
  if (total === undefined) {
    const [counted] = await queryRows<{ total: number; catalog_version: CatalogVersion }>(
      ctx.em,
      `select (${countSql}) as total, n as catalog_version from catalog_version where id = 1`,
      filter.params,
      { replan: listing.replan },
    );
    total = counted.total;
    rememberTotal(ctx.em, filter.key, counted.catalog_version, total);
  } else if (withCount) {
    rememberTotal(ctx.em, filter.key, version, total);
  }
  return { rows: pageRows(rows), total };
}

/**
 * When a remembered ranking cannot serve (see `rankedPage`): a page of keyword matches by relevance
 * (`rank`), then sold_count, then id, all in `direction`
 * (descending: most relevant first), with the number of matches. Every match is ranked (the
 * relevance of one product does not follow from any index order); sold_count, one index lookup per
 * product, is looked up only for the matches that rank at least as well as the page's last one,
 * the only ones whose order among themselves it can decide.
 */
async function relevancePage(ctx: ServiceContext, listing: Listing, rank: SqlPart): Promise<{ rows: ListedRow[]; total: number }> {
  const { filter, direction, include, offset, size } = listing;
  const [atLeast, worst] = direction === 'desc' ? ['>=', `'-infinity'`] : ['<=', `'infinity'`];
  // Bare names in `top` (its own output columns), qualified in the outer statement.
  const ordered = (t?: string) => ['rank', 'sold_count', 'id'].map((c) => `${t ? `${t}.` : ''}${c} ${direction}`).join(', ');
  const rows = await queryRows<PageRow<{ total: number }, ListedRow & { rank: number }>>(
    ctx.em,
    `with matched as materialized (select p.id, ${rank.sql} as rank from product p where ${filter.sql}),
          edge as (select rank from matched order by rank ${direction} offset ? limit 1),
          top as (select m.id, m.rank, ${soldCountOf('m.id')} as sold_count from matched m
                   where m.rank ${atLeast} coalesce((select rank from edge), ${worst}::real)
                   order by ${ordered()} limit ? offset ?),
          page as (select ${PRODUCT_COLUMNS}, top.rank, top.sold_count from top join product p on p.id = top.id join shop s on s.id = p.shop_id)
     select (select count(*)::int from matched) as total, page.* ${includedColumns(include)}
       from (select 1) one left join page on true ${profileJoin(include)}
      order by ${ordered('page')}`,
    [...rank.params, ...filter.params, offset + size - 1, size, offset],
    { replan: true },
  );
  return { rows: pageRows(rows), total: rows[0].total };
}

/**
 * A `sort=sales` page, or with `relevance` a keyword's page by relevance then sales, read by id from
 * the filter's remembered ranking, with the two versions in the same statement: one statement when the
 * ranking is current. Otherwise the candidates are ranked again (one statement) and the page read
 * again; if a sale or catalog change slips in between once more, undefined (the caller orders in SQL).
 * The total is the ranking's length: its candidates are exactly the filter's published products at
 * those versions, and their sold_count is the ranking's. A keyword's relevance is a function of the
 * product's search document, and the catalog version moves whenever a published product's document
 * changes (migration Search), so a ranking at the same versions is the one SQL would compute.
 */
async function rankedPage(ctx: ServiceContext, listing: Listing, relevance?: SqlPart): Promise<{ rows: ListedRow[]; total: number } | undefined> {
  const key = relevance ? `relevance ${listing.filter.key}` : listing.filter.key;
  const remembered = rankingOf(ctx.em, key);
  for (const ranking of remembered ? [remembered, undefined] : [undefined]) {
    const current = ranking ?? (await rankBy(ctx, listing, key, relevance));
    const page = pageOfRanking(current, listing.direction, listing.offset, listing.size);
    // `position` is a bigint (`with ordinality`): text, and only ordered on.
    const rows = await queryRows<PageRow<RankingVersions, ListedRow & { position: string }>>(
      ctx.em,
      `with page as (
         select ${PRODUCT_COLUMNS}, r.sold_count, r.position
           from unnest(?::int[], ?::int[]) with ordinality as r(id, sold_count, position)
           join product p on p.id = r.id join shop s on s.id = p.shop_id
       )
       select v.n::text as catalog_version, (select sum(n) from sales_version)::text as sales_version, page.*
              ${includedColumns(listing.include)}
         from (select n from catalog_version where id = 1) v left join page on true ${profileJoin(listing.include)}
        order by page.position`,
      [intArray(page.ids), intArray(page.sold)],
    );
    if (rows[0].catalog_version === current.catalogVersion && rows[0].sales_version === current.salesVersion) {
      return { rows: pageRows(rows), total: current.ids.length };
    }
  }
  return undefined;
}

/** The two versions a ranking holds at, as text (`sales_version` is the sum of its shards). */
interface RankingVersions {
  catalog_version: CatalogVersion;
  sales_version: string;
}

/**
 * Every candidate of the filter by sold_count, best first (ties: higher id first), or with `relevance`
 * by relevance first, with the versions it holds at; remembered under `key`.
 */
async function rankBy(ctx: ServiceContext, listing: Listing, key: string, relevance?: SqlPart): Promise<Ranking> {
  const { filter, replan } = listing;
  const order = `${relevance ? 'r.rank desc, ' : ''}r.sold desc, r.id desc`;
  // `offset 0` keeps `r` a subquery: flattened, its sold_count lookup ran once per use of `r.sold`.
  const [row] = await queryRows<RankingVersions & { ids: Database['Product']['id'][]; sold: number[] }>(
    ctx.em,
    `select (select n from catalog_version where id = 1)::text as catalog_version,
            (select sum(n) from sales_version)::text as sales_version,
            coalesce(array_agg(r.id order by ${order}), '{}') as ids,
            coalesce(array_agg(r.sold order by ${order}), '{}') as sold
       from (select p.id, ${relevance ? `${relevance.sql} as rank, ` : ''}${soldCountOf('p.id')} as sold from product p where ${filter.sql}
             offset 0) r`,
    [...(relevance?.params ?? []), ...filter.params],
    { replan },
  );
  const ranking: Ranking = { catalogVersion: row.catalog_version, salesVersion: row.sales_version, ids: row.ids, sold: row.sold };
  rememberRanking(ctx.em, key, ranking);
  return ranking;
}

/** The product page's row: the product, its shop's profile and brand (both left-joined), and the lists as JSON. */
type DetailRow = ProductColumns &
  ProfileColumns &
  BrandColumns & {
    sold_count: number;
    skus: SkuColumns[];
    /** Visible reviews per star, ratings 1 to 5. */
    rating_counts: number[];
    /** CATEGORY_COLUMNS of the path, root first (null only if the category had none). */
    category_path: Database['Category'][] | null;
  };

type BrandTable = Database['Brand'];
type BrandColumns =
  | { brand_name: BrandTable['name']; brand_logo_url: BrandTable['logoUrl']; brand_position: BrandTable['position'] }
  | { brand_name: null; brand_logo_url: null; brand_position: null };

/**
 * One published product with its SKUs, shop and profile, brand, category path, sold_count and rating
 * summary, in one statement (SKUs and the path as JSON lists); anything else is 404.
 */
export async function getProduct(ctx: ServiceContext, productId: unknown): Promise<ProductDetailView> {
  const id = parseInput(idParam, productId);
  const [row] = await queryRows<DetailRow>(
    ctx.em,
    `select ${PRODUCT_COLUMNS}, ${PROFILE_COLUMNS},
            b.name as brand_name, b.logo_url as brand_logo_url, b.position as brand_position,
            ${soldCountOf('p.id')} as sold_count,
            ${skusJsonOf('p.id')} as skus,
            ${ratingCountsOf('p.id')} as rating_counts,
            (select json_agg(c order by c.depth) from (
               select ${CATEGORY_COLUMNS} from category c where c.id = any(string_to_array(trim(both '/' from own.path), '/')::int[])) c
            ) as category_path
       from product p
       join shop s on s.id = p.shop_id
       left join shop_profile pr on pr.shop_id = s.id
       join category own on own.id = p.category_id
       left join brand b on b.id = p.brand_id
      where p.id = ? and p.status = 'published'`,
    [id],
  );
  if (!row) throw notFound('Product', { id });
  const product = toProductView(row);
  const [{ favorited }] = await withFavoritedProducts(ctx, [{ id }]);
  return {
    ...product,
    soldCount: row.sold_count,
    rating: ratingSummaryOf(id, row.rating_counts),
    favorited,
    shop: { ...product.shop, profile: toProfileView(row, product.shop.id) },
    brand:
      row.brand_id === null || row.brand_name === null
        ? undefined
        : toBrandView({ id: row.brand_id, name: row.brand_name, logoUrl: row.brand_logo_url, position: row.brand_position }),
    categoryPath: (row.category_path ?? []).map(toCategoryView),
    skus: row.skus,
  };
}
