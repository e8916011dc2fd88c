/**
 * A product with its SKU list as the shop's operator sends it: the service parses it
 * (merchant-product.service.ts) and the shop console's product form checks each field with it as it
 * is typed. Imports zod and the shared field rules only, so the web app can import it.
 */
import { httpUrl, idParam, money, quantity, NOT_BLANK, z } from '../../shared/input-rules.js';

export const SkuInput = z.strictObject({
  /** An existing SKU of this product; without id a SKU is created. */
  id: idParam.nullish(),
  name: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(120),
  price: money,
  /**
   * Sets the stock. Required for a new SKU; left out on an existing SKU the stock stays as it is, so
   * an edit cannot overwrite units sold since the merchant read them. On an existing SKU it is a
   * stock-take: the counted figure replaces whatever concurrent sales left.
   */
  stock: quantity.nullish(),
  /** Existing SKUs only: adds (or with a minus, removes) units in one guarded update, race-safe with sales. */
  stockDelta: z.number().int().min(-1_000_000).max(1_000_000).nullish(),
});

export const UpsertInput = z
  .strictObject({
    id: idParam.nullish(),
    name: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(200),
    description: z.string().trim().max(10_000).nullish(),
    imageUrl: httpUrl().nullish(),
    categoryId: idParam,
    brandId: idParam.nullish(),
    skus: z.array(SkuInput).min(1, 'a product needs at least one SKU').max(100),
  })
  .superRefine(
    (input, issue) => {
      const seen = new Set<number>();
      input.skus.forEach((sku, i) => {
        // It also runs when other fields failed (see `when` below): a list item may be no SKU at all.
        if (typeof sku !== 'object' || sku === null) return;
        if (sku.id == null && sku.stock == null) issue.addIssue({ code: 'custom', path: ['skus', i, 'stock'], message: 'a new SKU needs its stock' });
        if (sku.id == null && sku.stockDelta != null) issue.addIssue({ code: 'custom', path: ['skus', i, 'stockDelta'], message: 'only an existing SKU takes a stock delta' });
        if (sku.stock != null && sku.stockDelta != null) issue.addIssue({ code: 'custom', path: ['skus', i, 'stockDelta'], message: 'send a stock or a stock delta, not both' });
        if (sku.id != null) {
          if (seen.has(sku.id)) issue.addIssue({ code: 'custom', path: ['skus', i, 'id'], message: 'appears twice in the list' });
          seen.add(sku.id);
        }
      });
    },
    // Also when a field failed: a form left empty hears about a new SKU's missing stock with the rest.
    { when: (payload) => Array.isArray((payload.value as { skus?: unknown } | null)?.skus) },
  );
