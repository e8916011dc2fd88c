import { ProductStatus } from '../../entities/product.entity.js';
import { typedSql } from '../../db/typed-sql.js';
import type { ServiceContext } from '../../shared/context.js';
import { commaSeparated, id, parseInput, z } from '../../shared/validate.js';
import { count, id as viewId, money } from '../../shared/view-fields.js';

/**
 * What a guest cart shows of its lines (issue 44): the SKUs it holds, kept in the browser by id
 * until sign-in merges them, read as the storefront sells them now. Only SKUs of published products
 * are answered (a product unpublished, or held with its suspended shop, is left out, and the page says
 * the line is no longer available), each with its price and stock now.
 */
export const SkuSummaryView = z
  .strictObject({
    skuId: viewId,
    name: z.string(),
    price: money.describe('Minor units of the base currency, now'),
    stock: count,
    productId: viewId,
    productName: z.string(),
    imageUrl: z.string().nullable(),
    shopId: viewId,
    shopName: z.string(),
  })
  .describe('A SKU as a guest cart shows its line, with its product and shop');
export type SkuSummaryView = z.infer<typeof SkuSummaryView>;

/** At most a cart's worth of SKUs (a cart holds at most 100 lines). */
const SkuIds = z.array(id).min(1).max(100);

/**
 * `ids` as an array (GraphQL) or, in the REST query, comma-separated (`ids=3,17`): an array in
 * OpenAPI's `form` style without `explode`.
 */
export const SkuSummariesQuery = z.object({ ids: z.preprocess(commaSeparated, SkuIds).describe('SKU ids, comma-separated (1 to 100)') });

/** Anyone: the SKUs of published products among `ids`, in the order asked; others are left out. */
export async function skuSummaries(ctx: ServiceContext, input: unknown): Promise<{ items: SkuSummaryView[] }> {
  const { ids } = parseInput(SkuSummariesQuery, input);
  const rows = await typedSql(ctx.em)
    .selectFrom('Sku as s')
    .innerJoin('Product as p', 'p.id', 's.product')
    .innerJoin('Shop as sh', 'sh.id', 'p.shop')
    .select(['s.id as skuId', 's.name as name', 's.price as price', 's.stock as stock', 'p.id as productId', 'p.name as productName', 'p.imageUrl as imageUrl', 'sh.id as shopId', 'sh.name as shopName'])
    .where('s.id', 'in', [...new Set(ids)])
    .where('p.status', '=', ProductStatus.Published)
    .execute();
  const byId = new Map(rows.map((row) => [row.skuId, row]));
  return { items: [...new Set(ids)].flatMap((skuId): SkuSummaryView[] => (byId.has(skuId) ? [byId.get(skuId)!] : [])) };
}
