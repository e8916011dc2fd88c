import { AppError, notFound } from '../errors.js';
import type { ServiceContext } from './context.js';
import { parseInput, idParam, z } from './validate.js';
import { pageFields, pageOffset, type Page } from './pagination.js';
import { inSubtree } from './category.service.js';
import { soldCounts } from './sold-count.js';
import { ratingSummaries } from './rating-summary.js';
import { withFavoritedProducts } from './favorites.service.js';
import {
  PRODUCT_COLUMNS, PROFILE_COLUMNS, categoriesByIds, pathIds, skusByProductIds, toBrandView, toProductView, toProfileView, withSoldCounts,
  type ProductDetailView, type ProductView,
} from './catalog-views.js';

/**
 * Sort keys of the public listing, each with its default direction. `sales` sorts by sold_count,
 * best sellers first: it is aggregated for the filtered candidates only (see `listProducts`).
 */
const SORTS = {
  price: { column: 'p.price_from', defaultOrder: 'asc' },
  sales: { column: 'sc.sold_count', defaultOrder: 'desc' },
} as const satisfies Record<string, { column: string; defaultOrder: Order }>;
type Sort = keyof typeof SORTS;
type Order = 'asc' | 'desc';
const ORDERS: readonly Order[] = ['asc', 'desc'];

const ListProductsInput = z.strictObject({
  category: idParam.optional(),
  brandId: idParam.optional(),
  shopId: idParam.optional(),
  sort: z.string().optional(),
  order: z.string().optional(),
  ...pageFields,
});

/** `sort` and `order` first, so an unsupported value is SORT_UNSUPPORTED whatever else is wrong. */
function listingOrder(input: unknown): string {
  const { sort, order } = (input ?? {}) as { sort?: unknown; order?: unknown };
  if (sort !== undefined && !(typeof sort === 'string' && Object.hasOwn(SORTS, sort))) {
    throw new AppError('SORT_UNSUPPORTED', 400, `sort must be one of: ${Object.keys(SORTS).join(', ')}`, {
      parameter: 'sort', value: sort, allowed: Object.keys(SORTS),
    });
  }
  if (order !== undefined && !ORDERS.includes(order as Order)) {
    throw new AppError('SORT_UNSUPPORTED', 400, 'order must be asc or desc', { parameter: 'order', value: order, allowed: ORDERS });
  }
  // Default: newest first (ids grow with creation); `order` alone flips it. Ties break on id, in
  // the same direction, so pages never overlap and one index serves both directions.
  if (sort === undefined) return `p.id ${(order as Order | undefined) ?? 'desc'}`;
  const key = SORTS[sort as Sort];
  const direction = (order as Order | undefined) ?? key.defaultOrder;
  return `${key.column} ${direction}, p.id ${direction}`;
}

/**
 * Published products, one page. `category` covers its whole subtree (materialized path, one query),
 * `brandId` and `shopId` filter. The page and the total are two statements run side by side: the
 * page stops reading at its limit on the matching index, the count is an index-only scan.
 */
export async function listProducts(ctx: ServiceContext, input: unknown = {}): Promise<Page<ProductView>> {
  const orderBy = listingOrder(input);
  const q = parseInput(ListProductsInput, input);
  const where = [`p.status = 'published'`];
  const params: unknown[] = [];
  if (q.category !== undefined) {
    where.push(`p.category_id in (select c.id from category root join category c on ${inSubtree('c', 'root')} where root.id = ?)`);
    params.push(q.category);
  }
  if (q.brandId !== undefined) {
    where.push('p.brand_id = ?');
    params.push(q.brandId);
  }
  if (q.shopId !== undefined) {
    where.push('p.shop_id = ?');
    params.push(q.shopId);
  }
  const filter = where.join(' and ');
  // sort=sales: each candidate's sold_count is one index-only lookup on the sold lines, and the
  // page needs no second lookup. Other orders look up sold_count for the page afterwards.
  const bySales = q.sort === 'sales';
  const salesJoin = bySales
    ? `cross join lateral (select coalesce(sum(oi.quantity), 0)::int as sold_count from order_item oi where oi.sold and oi.product_id = p.id) sc`
    : '';
  const [rows, [count]] = await Promise.all([
    ctx.em.execute(
      `select ${PRODUCT_COLUMNS}${bySales ? ', sc.sold_count' : ''} from product p join shop s on s.id = p.shop_id ${salesJoin}
        where ${filter} order by ${orderBy} limit ? offset ?`,
      [...params, q.pageSize, pageOffset(q)],
    ),
    ctx.em.execute<{ total: number }[]>(`select count(*)::int as total from product p where ${filter}`, params),
  ]);
  const items = bySales
    ? rows.map((row) => ({ ...toProductView(row), soldCount: row.sold_count as number }))
    : await withSoldCounts(ctx.em, rows.map(toProductView));
  return { items: await withFavoritedProducts(ctx, items), page: q.page, pageSize: q.pageSize, total: count.total };
}

/** One published product with its SKUs, shop and profile, brand and category path; anything else is 404. */
export async function getProduct(ctx: ServiceContext, productId: unknown): Promise<ProductDetailView> {
  const id = parseInput(idParam, productId);
  const [row] = await ctx.em.execute(
    `select ${PRODUCT_COLUMNS}, ${PROFILE_COLUMNS}, c.path as category_path,
            b.name as brand_name, b.logo_url as brand_logo_url, b.position as brand_position
       from product p
       join shop s on s.id = p.shop_id
       left join shop_profile pr on pr.shop_id = s.id
       join category c on c.id = p.category_id
       left join brand b on b.id = p.brand_id
      where p.id = ? and p.status = 'published'`,
    [id],
  );
  if (!row) throw notFound('Product', { id });
  const product = toProductView(row);
  const categoryIds = pathIds(row.category_path);
  const [skus, categories, sold, [rating], [{ favorited }]] = await Promise.all([
    skusByProductIds(ctx.em, [id]),
    categoriesByIds(ctx.em, categoryIds),
    soldCounts(ctx.em, [id]),
    ratingSummaries(ctx.em, [id]),
    withFavoritedProducts(ctx, [{ id }]),
  ]);
  return {
    ...product,
    soldCount: sold.get(id) ?? 0,
    rating,
    favorited,
    shop: { ...product.shop, profile: toProfileView(row, product.shop.id) },
    brand: product.brandId === null ? undefined : toBrandView({ id: product.brandId, name: row.brand_name, logo_url: row.brand_logo_url, position: row.brand_position }),
    categoryPath: categoryIds.map((cid) => categories.get(cid)!).filter(Boolean),
    skus: skus.get(id) ?? [],
  };
}
