import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate } from '../shared/values.js';
import { conflict, notFound, refused, type AppError } from '../errors.js';
import { intArray } from '../db/sql.js';
import type { ServiceContext } from '../shared/context.js';
import { requireOperator } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { idParam, money, parseInput, quantity, z } from '../shared/validate.js';
import { pageFields, pageOffset, type Page } from '../shared/pagination.js';

/**
 * Flash-sale sessions: shop operators manage their own shop's sessions, anyone discovers the active
 * ones. Checkout pricing lives in `flash-sale-pricing.ts`.
 *
 * Reserving activity stock does not move units out of the SKU's stock: it caps how many of the SKU's
 * units sell at the activity price. Checkout takes activity stock and SKU stock together, each under
 * its own guard, in one transaction.
 */

/** Where now falls in a session's window. */
export enum FlashSaleState {
  Upcoming = 'upcoming',
  Active = 'active',
  Ended = 'ended',
}

export interface FlashSaleItemView {
  id: number;
  skuId: number;
  skuName: string;
  productId: number;
  productName: string;
  /** The SKU's current price, for comparison. */
  standardPrice: number;
  activityPrice: number;
  /** Activity stock set by the shop. */
  reservedStock: number;
  /** Activity stock left (pending and paid orders have taken the rest). */
  remainingStock: number;
  perCustomerLimit: number;
}

export interface FlashSaleView {
  id: number;
  shop: { id: number; slug: string; name: string };
  name: string;
  startsAt: Date;
  endsAt: Date;
  enabled: boolean;
  /** Where now falls in the window `[startsAt, endsAt)`. */
  state: FlashSaleState;
  items: FlashSaleItemView[];
}

/** An ISO 8601 date-time with an offset (REST), or a Date (GraphQL's DateTimeISO). */
const dateTime = z.union([z.date(), z.iso.datetime({ offset: true }).transform((s) => new Date(s))]);

const ItemInput = z
  .object({
    skuId: idParam,
    activityPrice: money,
    reservedStock: quantity,
    perCustomerLimit: z.number().int().min(1).max(1_000_000),
  })
  .strict();

const SessionFields = z
  .object({
    name: z.string().trim().min(1).max(120),
    startsAt: dateTime,
    endsAt: dateTime,
    items: z.array(ItemInput).min(1).max(100),
  })
  .strict();

type Session = z.output<typeof SessionFields>;

const checked = <S extends z.ZodType<Session>>(schema: S) =>
  schema
    .refine((s) => s.endsAt > s.startsAt, { path: ['endsAt'], message: 'must be after startsAt' })
    .refine((s) => new Set(s.items.map((i) => i.skuId)).size === s.items.length, { path: ['items'], message: 'a SKU may appear only once' });

const SessionRef = z.object({ flashSaleId: idParam });
const SessionInput = checked(SessionFields);
const UpdateInput = checked(SessionFields.extend({ flashSaleId: idParam }));
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const DiscoverInput = z.object({ ...pageFields, includeUpcoming: flag.default(false), shopId: idParam.optional(), productId: idParam.optional() });
const PageInput = z.object(pageFields);

/**
 * Enabled sessions whose window contains now, and with `includeUpcoming` also those still to start
 * (their `state` says which), soonest first. Items of products not on sale are left out.
 * `productId` keeps the sessions with an item of that product (a product page's live price).
 */
export async function listFlashSales(ctx: ServiceContext, input: unknown): Promise<Page<FlashSaleView>> {
  const { page, pageSize, includeUpcoming, shopId, productId } = parseInput(DiscoverInput, input ?? {});
  return pageOf(
    ctx.em,
    `select id, row_number() over (order by starts_at, id) as n from flash_sale
      where enabled and ends_at > now() and (starts_at <= now() or ?::boolean) and (?::int is null or shop_id = ?)
        and (?::int is null or id in (select i.flash_sale_id from flash_sale_item i join sku s on s.id = i.sku_id where s.product_id = ?))`,
    [includeUpcoming, shopId ?? null, shopId ?? null, productId ?? null, productId ?? null],
    { page, pageSize },
    true,
  );
}

/** The operator's own sessions, enabled or not, newest first. */
export async function listShopFlashSales(ctx: ServiceContext, input: unknown): Promise<Page<FlashSaleView>> {
  const operator = requireOperator(ctx);
  const request = parseInput(PageInput, input ?? {});
  return pageOf(ctx.em, 'select id, row_number() over (order by id desc) as n from flash_sale where shop_id = ?', [operator.shopId], request, false);
}

export async function getShopFlashSale(ctx: ServiceContext, input: unknown): Promise<FlashSaleView> {
  const operator = requireOperator(ctx);
  const { flashSaleId } = parseInput(SessionRef, input);
  return ownView(ctx.em, operator.shopId, flashSaleId);
}

/** Creates a disabled session with its items; enabling is a separate step. */
export async function createFlashSale(ctx: ServiceContext, input: unknown): Promise<FlashSaleView> {
  const operator = requireOperator(ctx);
  const data = parseInput(SessionInput, input);
  return inTransaction(ctx, async (tx) => {
    await checkItems(tx.em, operator.shopId, data);
    const [row] = await tx.em.execute<{ id: number }[]>(
      `insert into flash_sale (shop_id, name, starts_at, ends_at, enabled, created_at, updated_at)
       values (?, ?, ?, ?, false, now(), now()) returning id`,
      [operator.shopId, data.name, data.startsAt, data.endsAt],
    );
    await writeItems(tx.em, row.id, false, data);
    return ownView(tx.em, operator.shopId, row.id);
  });
}

/**
 * Replaces a session's name, window and items. Items are matched by SKU, so an item keeps its id,
 * its sales and its customers' counts; the activity stock left moves by the change of the reserved
 * stock and may not drop below what is already sold. An item that priced orders cannot be removed.
 * An enabled session is checked for overlaps again.
 */
export async function updateFlashSale(ctx: ServiceContext, input: unknown): Promise<FlashSaleView> {
  const operator = requireOperator(ctx);
  const { flashSaleId, ...data } = parseInput(UpdateInput, input);
  return inTransaction(ctx, async (tx) => {
    const [session] = await tx.em.execute<{ enabled: boolean }[]>(
      'select enabled from flash_sale where id = ? and shop_id = ? for update',
      [flashSaleId, operator.shopId],
    );
    if (!session) throw notFound('Flash sale', { flash_sale_id: flashSaleId });
    await checkItems(tx.em, operator.shopId, data);
    await tx.em.execute('update flash_sale set name = ?, starts_at = ?, ends_at = ?, updated_at = now() where id = ?', [
      data.name,
      data.startsAt,
      data.endsAt,
      flashSaleId,
    ]);
    await translate(
      tx.em.execute('delete from flash_sale_item where flash_sale_id = ? and sku_id <> all(?::int[])', [
        flashSaleId,
        intArray(data.items.map((i) => i.skuId)),
      ]),
    );
    await writeItems(tx.em, flashSaleId, session.enabled, data);
    return ownView(tx.em, operator.shopId, flashSaleId);
  });
}

/** Deletes a session and its items, unless an item priced an order (the history stays; disable it instead). */
export async function deleteFlashSale(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireOperator(ctx);
  const { flashSaleId } = parseInput(SessionRef, input);
  await inTransaction(ctx, async (tx) => {
    const deleted = await translate(
      tx.em.execute<{ id: number }[]>('delete from flash_sale where id = ? and shop_id = ? returning id', [flashSaleId, operator.shopId]),
    );
    if (deleted.length === 0) throw notFound('Flash sale', { flash_sale_id: flashSaleId });
  });
}

/**
 * Enables a session. The exclusion constraint on the items refuses a SKU that is in another
 * overlapping enabled session, also when two enables race: the second waits for the first and fails.
 */
export const enableFlashSale = (ctx: ServiceContext, input: unknown) => setEnabled(ctx, input, true);

/** Disables a session: it prices nothing any more; orders already placed keep their prices. */
export const disableFlashSale = (ctx: ServiceContext, input: unknown) => setEnabled(ctx, input, false);

async function setEnabled(ctx: ServiceContext, input: unknown, enabled: boolean): Promise<FlashSaleView> {
  const operator = requireOperator(ctx);
  const { flashSaleId } = parseInput(SessionRef, input);
  return inTransaction(ctx, async (tx) => {
    const updated = await tx.em.execute<{ id: number }[]>(
      'update flash_sale set enabled = ?, updated_at = now() where id = ? and shop_id = ? returning id',
      [enabled, flashSaleId, operator.shopId],
    );
    if (updated.length === 0) throw notFound('Flash sale', { flash_sale_id: flashSaleId });
    await translate(tx.em.execute('update flash_sale_item set enabled = ? where flash_sale_id = ?', [enabled, flashSaleId]));
    return ownView(tx.em, operator.shopId, flashSaleId);
  });
}

/** Every SKU must be of the operator's shop (another shop's is 404) and priced below its standard price. */
async function checkItems(em: EntityManager, shopId: number, data: Session): Promise<void> {
  const skus = await em.execute<{ id: number; price: number }[]>(
    'select s.id, s.price from sku s join product p on p.id = s.product_id where s.id = any(?::int[]) and p.shop_id = ?',
    [intArray(data.items.map((i) => i.skuId)), shopId],
  );
  const priceOf = new Map(skus.map((s) => [s.id, s.price]));
  for (const item of data.items) {
    const price = priceOf.get(item.skuId);
    if (price === undefined) throw notFound('SKU', { sku_id: item.skuId });
    if (item.activityPrice >= price) {
      throw refused('FLASH_SALE_PRICE_NOT_LOWER', `The activity price of SKU ${item.skuId} must be below its price ${price}`, {
        sku_id: item.skuId,
        activity_price: item.activityPrice,
        standard_price: price,
      });
    }
  }
}

/**
 * Inserts or updates a session's items (matched by SKU) with the session's window and state copied
 * in. On an existing item the activity stock left moves by the change of the reserved stock; the
 * guard skips an item whose new reserve is below what it has sold, which then refuses the edit.
 */
async function writeItems(em: EntityManager, flashSaleId: number, enabled: boolean, data: Session): Promise<void> {
  const { items } = data;
  const written = await translate(
    em.execute<{ sku_id: number }[]>(
      `insert into flash_sale_item
         (flash_sale_id, sku_id, activity_price, reserved_stock, remaining_stock, per_customer_limit, enabled, sale_window)
       select ?, d.sku_id, d.price, d.reserved, d.reserved, d.per_customer, ?, tstzrange(?, ?, '[)')
         from unnest(?::int[], ?::int[], ?::int[], ?::int[]) as d(sku_id, price, reserved, per_customer)
       on conflict (flash_sale_id, sku_id) do update set
         activity_price = excluded.activity_price,
         remaining_stock = flash_sale_item.remaining_stock + excluded.reserved_stock - flash_sale_item.reserved_stock,
         reserved_stock = excluded.reserved_stock,
         per_customer_limit = excluded.per_customer_limit,
         enabled = excluded.enabled,
         sale_window = excluded.sale_window
       where flash_sale_item.remaining_stock + excluded.reserved_stock - flash_sale_item.reserved_stock >= 0
       returning sku_id`,
      [
        flashSaleId,
        enabled,
        data.startsAt,
        data.endsAt,
        intArray(items.map((i) => i.skuId)),
        intArray(items.map((i) => i.activityPrice)),
        intArray(items.map((i) => i.reservedStock)),
        intArray(items.map((i) => i.perCustomerLimit)),
      ],
    ),
  );
  if (written.length === items.length) return;
  const done = new Set(written.map((w) => w.sku_id));
  const short = items.find((i) => !done.has(i.skuId))!;
  const [sold] = await em.execute<{ sold: number }[]>(
    'select reserved_stock - remaining_stock as sold from flash_sale_item where flash_sale_id = ? and sku_id = ?',
    [flashSaleId, short.skuId],
  );
  throw refused('FLASH_SALE_RESERVE_BELOW_SOLD', `SKU ${short.skuId} has sold ${sold.sold} activity units; the reserve cannot be smaller`, {
    sku_id: short.skuId,
    sold: sold.sold,
    reserved_stock: short.reservedStock,
  });
}

/** Database refusals that are answers: an overlapping enabled session, an item that priced orders. */
async function translate<T>(statement: Promise<T>): Promise<T> {
  try {
    return await statement;
  } catch (error) {
    throw asAppError(error) ?? error;
  }
}

function asAppError(error: unknown): AppError | undefined {
  const e = error as { code?: string; constraint?: string; detail?: string };
  if (e.code === '23P01' && e.constraint === 'flash_sale_item_no_overlap') {
    const skuId = /\(sku_id, sale_window\)=\((\d+),/.exec(e.detail ?? '')?.[1];
    return conflict('FLASH_SALE_OVERLAP', 'A SKU of this session is in another enabled session with an overlapping window', {
      ...(skuId ? { sku_id: Number(skuId) } : {}),
    });
  }
  if (e.code === '23503' && e.constraint === 'order_item_flash_sale_item_id_foreign') {
    return conflict('FLASH_SALE_HAS_ORDERS', 'An item of this session priced orders; disable the session instead');
  }
  return undefined;
}

async function ownView(em: EntityManager, shopId: number, flashSaleId: number): Promise<FlashSaleView> {
  const [view] = await flashSaleViews(em, [flashSaleId], false);
  if (!view || view.shop.id !== shopId) throw notFound('Flash sale', { flash_sale_id: flashSaleId });
  return view;
}

/** One page of the sessions `idsQuery` numbers (`id`, `n`): total and page in one query, then the views. */
async function pageOf(
  em: EntityManager,
  idsQuery: string,
  params: unknown[],
  request: { page: number; pageSize: number },
  publicOnly: boolean,
): Promise<Page<FlashSaleView>> {
  const [row] = await em.execute<{ total: number; ids: number[] | null }[]>(
    `with matched as (${idsQuery})
     select (select count(*)::int from matched) as total,
            (select array_agg(id order by n) from matched where n > ? and n <= ?) as ids`,
    [...params, pageOffset(request), pageOffset(request) + request.pageSize],
  );
  return { items: await flashSaleViews(em, row.ids ?? [], publicOnly), page: request.page, pageSize: request.pageSize, total: row.total };
}

/** Views of several sessions in two queries, in the order of `ids`. */
async function flashSaleViews(em: EntityManager, ids: number[], publicOnly: boolean): Promise<FlashSaleView[]> {
  if (ids.length === 0) return [];
  const idList = intArray(ids);
  const [sessions, items] = await Promise.all([
    em.execute<any[]>(
      `select f.id, f.shop_id, s.slug as shop_slug, s.name as shop_name, f.name, f.starts_at, f.ends_at, f.enabled,
              case when now() < f.starts_at then 'upcoming' when now() < f.ends_at then 'active' else 'ended' end as state
         from flash_sale f join shop s on s.id = f.shop_id where f.id = any(?::int[])`,
      [idList],
    ),
    em.execute<any[]>(
      `select i.id, i.flash_sale_id, i.sku_id, s.name as sku_name, s.price as standard_price, p.id as product_id,
              p.name as product_name, i.activity_price, i.reserved_stock, i.remaining_stock, i.per_customer_limit
         from flash_sale_item i join sku s on s.id = i.sku_id join product p on p.id = s.product_id
        where i.flash_sale_id = any(?::int[]) and (not ?::boolean or p.status = 'published')
        order by i.id`,
      [idList, publicOnly],
    ),
  ]);
  const itemsBySession = new Map<number, FlashSaleItemView[]>();
  for (const i of items) {
    const list = itemsBySession.get(i.flash_sale_id) ?? [];
    list.push({
      id: i.id, skuId: i.sku_id, skuName: i.sku_name, productId: i.product_id, productName: i.product_name,
      standardPrice: i.standard_price, activityPrice: i.activity_price, reservedStock: i.reserved_stock,
      remainingStock: i.remaining_stock, perCustomerLimit: i.per_customer_limit,
    });
    itemsBySession.set(i.flash_sale_id, list);
  }
  const byId = new Map(
    sessions.map((f): [number, FlashSaleView] => [
      f.id,
      {
        id: f.id,
        shop: { id: f.shop_id, slug: f.shop_slug, name: f.shop_name },
        name: f.name,
        startsAt: toDate(f.starts_at),
        endsAt: toDate(f.ends_at),
        enabled: f.enabled,
        state: f.state,
        items: itemsBySession.get(f.id) ?? [],
      },
    ]),
  );
  return ids.map((i) => byId.get(i)).filter((v): v is FlashSaleView => v !== undefined);
}
