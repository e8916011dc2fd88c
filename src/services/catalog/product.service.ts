import { notFound } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { parseInput, idParam, z } from '../../shared/validate.js';
import { pageFields, pageOffset, type Page } from '../../shared/pagination.js';
import {
  checkListingOrder, checkPriceRange, firstMatching, listingFilterFields, listingOf, listingOrderFields, plansVaryByValue, type Listing, type ListingOrder, type ListingSort,
} from './listing-filter.js';
import { hasTotal, rememberTotal, totalAt } from './listing-total-cache.js';
import { applySalesChanges, pageOfRanking, rankCandidates, rankingOf, rememberRanking, sharedRanking, type Ranking } from './sales-ranking-cache.js';
import { currentSalesTally } from './sales-tally.js';
import { ratingSummaryOf } from './rating-summary.js';
import { withFavoritedProducts } from '../accounts/favorites.service.js';
import { listingCount, listingPage, productDetail, ranking, rankedPage, rankingCandidates, relevancePage, type ListingIncludes, type PageShape } from './product.repository.js';
import {
  toBrandView, toCategoryView, toProductView, toProfileView,
  type ProductColumns, type ProductDetailView, type ProductView, type ProfileColumns, type ShopView, type SkuView,
} from './catalog-views.js';
import { refusals } from '../../error-codes.js';

/** The default direction of each sort key. `sales` sorts by sold_count, best sellers first. */
const DEFAULT_ORDER = { price: 'asc', sales: 'desc' } as const satisfies Record<ListingSort, ListingOrder>;

export const ListProductsInput = z
  .strictObject({
    ...listingFilterFields,
    ...listingOrderFields,
    ...pageFields,
  })
  .superRefine(checkPriceRange);

/** `sort` and `order` first, so an unsupported value is SORT_UNSUPPORTED whatever else is wrong. */
function listingOrder(input: unknown): { order: PageShape['order']; direction: ListingOrder } {
  const { sort, order } = checkListingOrder(input);
  // Default: newest first (ids grow with creation), or with a keyword most relevant first (see
  // `relevancePage`); `order` alone flips it. Ties break on id, in the same direction, so pages
  // never overlap and one index serves both directions.
  if (sort === undefined) return { order: 'id', direction: order ?? 'desc' };
  return { order: sort, direction: order ?? DEFAULT_ORDER[sort] };
}

/** What a listing may bring along with each product (GraphQL asks for what its query selects). */
export type { ListingIncludes };

/** A listed product; `skus` and `shop.profile` are present when included (`profile` undefined: the shop has none). */
export type ListedProduct = ProductView & { shop: ShopView; skus?: SkuView[] };

export const listProductsRefusals = refusals('SORT_UNSUPPORTED');

/**
 * Published products, one page, in one statement: the page (it stops reading at its limit on the
 * matching index) with shop and sold_count, and the catalog version; with `include`, each product's
 * SKUs (a JSON list) and its shop's profile too. The total comes from `listing-total-cache.ts` when it
 * was counted at that same version, else from a count in the same statement (first listing of a
 * filter) or a second one (after a catalog change). `sort=sales` reads its page by the ranking
 * remembered in `sales-ranking-cache.ts` (see `rankedPageOf`), and so does a keyword's relevance order.
 */
export async function listProducts(ctx: ServiceContext, input: unknown = {}, include: Partial<ListingIncludes> = {}): Promise<Page<ListedProduct>> {
  const { order, direction } = listingOrder(input);
  const q = parseInput(ListProductsInput, input);
  const includes: ListingIncludes = { skus: include.skus ?? false, shopProfiles: include.shopProfiles ?? false };
  const { rows, total } = await firstMatching(q.q, async (match) => {
    const listing = listingOf(q, match);
    const page: PageRequest = { listing, direction, offset: pageOffset(q), size: q.pageSize, include: includes, replan: plansVaryByValue(listing.shape) };
    const byRelevance = match !== undefined && q.sort === undefined;
    return (
      ((order === 'sales' || byRelevance) && (await rankedPageOf(ctx, page, byRelevance))) ||
      (byRelevance ? await relevancePageOf(ctx, page) : await orderedPage(ctx, page, order))
    );
  });
  const items = rows.map((row): ListedProduct => {
    const product: ListedProduct = { ...toProductView(row), soldCount: row.soldCount };
    if (includes.skus && row.skus) product.skus = row.skus;
    if (includes.shopProfiles) product.shop = { ...product.shop, profile: toProfileView(row, row.shopId) };
    return product;
  });
  return { items: await withFavoritedProducts(ctx, items), page: q.page, pageSize: q.pageSize, total };
}

interface PageRequest {
  listing: Listing;
  direction: ListingOrder;
  offset: number;
  size: number;
  include: ListingIncludes;
  /** Plan the statements with their values on each call (a filtered listing: see `plansVaryByValue`). */
  replan: boolean;
}

/** A page's product with its sold_count, and its SKUs and shop profile columns when included. */
type ListedRow = ProductColumns & ProfileColumns & { soldCount: number; skus?: SkuView[] };

/** The columns every listed product has (the page is left-joined to its versions' row, so the row types make them nullable). */
const LISTED = ['id', 'name', 'status', 'priceFrom', 'categoryId', 'shopId', 'shopSlug', 'shopName', 'createdAt', 'updatedAt', 'soldCount'] as const;
type Listed = (typeof LISTED)[number];

/**
 * The page's products: its statements read `versions left join page on true`, so an empty page is
 * one row of versions whose page columns are null, and a product's row has every one of them.
 */
function pageRows<R extends { [K in Listed]: unknown }>(rows: R[]): (Omit<R, Listed> & { [K in Listed]: NonNullable<R[K]> })[] {
  return rows.filter((row): row is R & { [K in Listed]: NonNullable<R[K]> } => LISTED.every((column) => row[column] !== null));
}

/**
 * A page ordered in SQL. For `sort=sales` (only when its ranking keeps moving) each candidate's
 * sold_count is one index-only lookup; the candidates are ranked by id first and only the page's
 * rows are read.
 */
async function orderedPage(ctx: ServiceContext, page: PageRequest, order: PageShape['order']): Promise<{ rows: ListedRow[]; total: number }> {
  const { listing } = page;
  const withCount = !hasTotal(ctx.em, listing.key);
  const rows = await listingPage.run(
    ctx.em,
    { filter: listing.shape, order, direction: page.direction, include: page.include, withCount },
    { ...listing.values, size: page.size, offset: page.offset },
    { replan: page.replan },
  );
  const version = rows[0].catalogVersion;
  let total = withCount ? rows[0].total : totalAt(ctx.em, listing.key, version);
  if (total === undefined) {
    const [counted] = await listingCount.run(ctx.em, { filter: listing.shape }, listing.values, { replan: page.replan });
    total = counted.total;
    rememberTotal(ctx.em, listing.key, counted.catalogVersion, total, ctx.config.memoryBounds.listingTotalFilters);
  } else if (withCount) {
    rememberTotal(ctx.em, listing.key, version, total, ctx.config.memoryBounds.listingTotalFilters);
  }
  return { rows: pageRows(rows), total };
}

/** When a remembered ranking cannot serve (see `rankedPageOf`): a page of keyword matches by relevance, with the number of matches. */
async function relevancePageOf(ctx: ServiceContext, page: PageRequest): Promise<{ rows: ListedRow[]; total: number }> {
  const { listing } = page;
  const keyword = listing.shape.keyword!;
  const rows = await relevancePage.run(
    ctx.em,
    { filter: { ...listing.shape, keyword }, direction: page.direction, include: page.include },
    { ...listing.values, edge: page.offset + page.size - 1, size: page.size, offset: page.offset },
    { replan: true },
  );
  return { rows: pageRows(rows), total: rows[0].total };
}

/**
 * A `sort=sales` page, or with `relevance` a keyword's page by relevance then sales, read by id from
 * the filter's remembered ranking, with the versions in the same statement: one statement when the
 * ranking is current. When only sales moved, the statement also returns what they moved since the
 * ranking's counters: the ranking is brought up to that statement's snapshot (in place, shared by
 * every listing of the filter), and if the page's products and their sold counts are still the ones it
 * read, the page is that snapshot's; else the page is read again from the updated ranking. A ranking
 * the log cannot update (its catalog version moved, a bulk change, a pruned log) is ranked again (one
 * statement, shared by concurrent listings). If the versions keep moving through `ATTEMPTS` reads,
 * undefined: the caller orders in SQL.
 * The total is the ranking's length: its candidates are exactly the filter's published products at
 * that catalog version. A keyword's relevance is a function of the product's search document, and the
 * catalog version moves whenever a published product's document changes (migration Search), so a
 * ranking at the same versions is the one SQL would compute.
 */
async function rankedPageOf(ctx: ServiceContext, page: PageRequest, relevance: boolean): Promise<{ rows: ListedRow[]; total: number } | undefined> {
  const key = relevance ? `relevance ${page.listing.key}` : page.listing.key;
  let ranked = rankingOf(ctx.em, key) ?? (await rankBy(ctx, page, key, relevance));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const at = { catalogVersion: ranked.catalogVersion, salesVector: ranked.salesVector };
    const slice = pageOfRanking(ranked, page.direction, page.offset, page.size);
    const rows = await rankedPage.run(ctx.em, { include: page.include }, { ids: slice.ids, sold: slice.sold, since: at.salesVector });
    const [read] = rows;
    const served = () => ({ rows: pageRows(rows), total: ranked.ids.length });
    if (read.catalogVersion !== at.catalogVersion || read.resetSince) {
      // A newer ranking kept meanwhile (another listing ranked again) is tried before ranking again.
      const kept = rankingOf(ctx.em, key);
      ranked = kept && kept !== ranked ? kept : await rankBy(ctx, page, key, relevance);
      continue;
    }
    if (read.salesVector === at.salesVector) return served();
    if (ranked.catalogVersion === at.catalogVersion && ranked.salesVector === at.salesVector) {
      // Nobody moved it while the statement ran: bring it to the statement's snapshot.
      applySalesChanges(ranked, { ids: read.changedIds ?? [], deltas: read.changedBy ?? [] });
      ranked.salesVector = read.salesVector;
    }
    if (ranked.catalogVersion === read.catalogVersion && ranked.salesVector === read.salesVector) {
      const now = pageOfRanking(ranked, page.direction, page.offset, page.size);
      if (sameNumbers(now.ids, slice.ids) && sameNumbers(now.sold, slice.sold)) return served();
    } else {
      // Another listing moved it to another snapshot meanwhile: read again from where it is now.
      ranked = rankingOf(ctx.em, key) ?? ranked;
    }
  }
  return undefined;
}

/** Page reads of one listing from a remembered ranking before it orders in SQL (see `rankedPageOf`). */
const ATTEMPTS = 5;

const sameNumbers = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/**
 * Every candidate of the filter by sold_count, best first (ties: higher id first), or with `relevance`
 * by relevance first, with the versions it holds at; remembered under `key`, and computed once for
 * concurrent callers (`sharedRanking`). The candidates are read without their sold lines and ordered
 * by the sales tally; while the tally is not there (a process that could not read it, or reads it
 * again), the ranking statement orders them in SQL.
 */
function rankBy(ctx: ServiceContext, page: PageRequest, key: string, relevance: boolean): Promise<Ranking> {
  return sharedRanking(ctx.em, key, async () => {
    const shape = { filter: page.listing.shape, relevance };
    const tally = await currentSalesTally(ctx.em);
    let ranked: Ranking;
    if (tally) {
      const [row] = await rankingCandidates.run(ctx.em, shape, page.listing.values, { replan: page.replan });
      ranked = rankCandidates({ catalogVersion: row.catalogVersion, salesVector: tally.vector }, { ids: row.ids, rank: row.rank }, (id) => tally.soldOf(id));
    } else {
      const [row] = await ranking.run(ctx.em, shape, page.listing.values, { replan: page.replan });
      ranked = {
        catalogVersion: row.catalogVersion,
        salesVector: row.salesVector,
        ids: Int32Array.from(row.ids),
        sold: Int32Array.from(row.sold),
        rank: relevance ? Float64Array.from(row.rank) : undefined,
      };
    }
    rememberRanking(ctx.em, key, ranked, ctx.config.memoryBounds.rankingProducts);
    return ranked;
  });
}

export const getProductRefusals = refusals('NOT_FOUND');

/**
 * One published product with its SKUs, shop and profile, brand, category path, sold_count and rating
 * summary, in one statement (SKUs and the path as JSON lists); anything else is 404.
 */
export async function getProduct(ctx: ServiceContext, productId: unknown): Promise<ProductDetailView> {
  const id = parseInput(idParam, productId);
  const [row] = await productDetail.run(ctx.em, {}, { id });
  if (!row) throw notFound('Product', { id });
  const product = toProductView(row);
  const [{ favorited }] = await withFavoritedProducts(ctx, [{ id }]);
  return {
    ...product,
    soldCount: row.soldCount,
    rating: ratingSummaryOf(id, row.ratingCounts),
    favorited,
    shop: { ...product.shop, profile: toProfileView(row, product.shop.id) },
    brand:
      row.brandId === null || row.brandName === null || row.brandPosition === null
        ? undefined
        : toBrandView({ id: row.brandId, name: row.brandName, logoUrl: row.brandLogoUrl, position: row.brandPosition }),
    categoryPath: row.categoryPath.map(toCategoryView),
    skus: row.skus,
  };
}
