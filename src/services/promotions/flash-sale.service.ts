import { LockMode, QueryOrder, type Loaded } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { causeChain, conflict, notFound, refused, type AppError } from '../../errors.js';
import { setActivityReserve } from '../inventory/inventory.service.js';
import { typedSql } from '../../db/typed-sql.js';
import { FlashSale, FlashSaleItem } from '../../entities/flash-sale.entity.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import { Sku } from '../../entities/sku.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { idParam, parseInput, queryFlag, z } from '../../shared/validate.js';
import { SessionInput, UpdateInput } from './flash-sale.inputs.js';
import { PageQuery, pageFields, pageOf, pageWindow, type Page } from '../../shared/pagination.js';
import { refusals } from '../../error-codes.js';
import { auditedWrite } from '../../shared/audit.js';
import { auditedRows } from '../../shared/audit.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';

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

/** The views of flash sales: REST publishes these schemas and GraphQL's types are made from them. */
export const FlashSaleItemView = z.strictObject({
  id,
  skuId: id,
  skuName: z.string(),
  productId: id,
  productName: z.string(),
  standardPrice: money.describe("The SKU's current price"),
  activityPrice: money,
  reservedStock: count.describe('Activity stock set by the shop'),
  // Pending and paid orders have taken the rest.
  remainingStock: count.describe('Activity stock left'),
  perCustomerLimit: z.number().int().positive().describe('Activity-priced units one customer may buy'),
});
export type FlashSaleItemView = z.infer<typeof FlashSaleItemView>;

export const FlashSaleView = z.strictObject({
  id,
  shop: ShopRef,
  name: z.string(),
  startsAt: timestamp,
  endsAt: timestamp.describe('Exclusive end of the window'),
  enabled: z.boolean(),
  /** Where now falls in the window `[startsAt, endsAt)`. */
  state: z.enum(FlashSaleState),
  items: z.array(FlashSaleItemView),
});
export type FlashSaleView = z.infer<typeof FlashSaleView>;

type Session = z.output<typeof SessionInput>;
type ItemInput = Session['items'][number];

const SessionRef = z.object({ flashSaleId: idParam });
export { SessionInput, UpdateInput };
export const DiscoverInput = z.object({ ...pageFields, includeUpcoming: queryFlag.default(false), shopId: idParam.optional(), productId: idParam.optional() });

/** What a view needs loaded: the shop, and each item's SKU with its product. */
const VIEW_POPULATE = ['shop', 'items.sku.product'] as const;
type LoadedSession = Loaded<FlashSale, (typeof VIEW_POPULATE)[number]>;

/**
 * Enabled sessions whose window contains now, and with `includeUpcoming` also those still to start
 * (their `state` says which), soonest first. Items of products not on sale are left out.
 * `productId` keeps the sessions with an item of that product (a product page's live price).
 */
export async function listFlashSales(ctx: ServiceContext, input: unknown): Promise<Page<FlashSaleView>> {
  const { includeUpcoming, shopId, productId, ...request } = parseInput(DiscoverInput, input ?? {});
  const now = new Date();
  const [sessions, total] = await ctx.em.findAndCount(
    FlashSale,
    {
      enabled: true,
      endsAt: { $gt: now },
      ...(includeUpcoming ? {} : { startsAt: { $lte: now } }),
      // A suspended or closed shop's sessions are not offered (its items are held products anyway).
      shop: { status: ShopStatus.Active, ...(shopId !== undefined ? { id: shopId } : {}) },
      ...(productId !== undefined ? { items: { $some: { sku: { product: productId } } } } : {}),
    },
    { populate: VIEW_POPULATE, orderBy: [{ startsAt: QueryOrder.ASC }, { id: QueryOrder.ASC }], ...pageWindow(request) },
  );
  return pageOf(sessions.map((s) => flashSaleView(s, now, true)), request, total);
}

/** The operator's own sessions, enabled or not, newest first. */
export async function listShopFlashSales(ctx: ServiceContext, input: unknown): Promise<Page<FlashSaleView>> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const request = parseInput(PageQuery, input ?? {});
  const [sessions, total] = await ctx.em.findAndCount(
    FlashSale,
    { shop: operator.shopId },
    { populate: VIEW_POPULATE, orderBy: { id: QueryOrder.DESC }, ...pageWindow(request) },
  );
  const now = new Date();
  return pageOf(sessions.map((s) => flashSaleView(s, now, false)), request, total);
}

export const getShopFlashSaleRefusals = refusals('NOT_FOUND');

export async function getShopFlashSale(ctx: ServiceContext, input: unknown): Promise<FlashSaleView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { flashSaleId } = parseInput(SessionRef, input);
  return ownView(ctx.em, operator.shopId, flashSaleId);
}

export const createFlashSaleRefusals = refusals('FLASH_SALE_PRICE_NOT_LOWER', 'NOT_FOUND');

/** Creates a disabled session with its items; enabling is a separate step. */
export async function createFlashSale(ctx: ServiceContext, input: unknown): Promise<FlashSaleView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const data = parseInput(SessionInput, input);
  return inTransaction(ctx, async (tx) => {
    await checkItems(tx.em, operator.shopId, data);
    const session = tx.em.create(FlashSale, { shop: operator.shopId, name: data.name, startsAt: data.startsAt, endsAt: data.endsAt });
    const created = data.items.map((item) => createItem(tx.em, session, item));
    await tx.em.flush();
    await openActivityStock(tx.em, created);
    return ownView(tx.em, operator.shopId, session.id);
  });
}

export const updateFlashSaleRefusals = refusals('FLASH_SALE_HAS_ORDERS', 'FLASH_SALE_OVERLAP', 'FLASH_SALE_PRICE_NOT_LOWER', 'FLASH_SALE_RESERVE_BELOW_SOLD', 'NOT_FOUND');

/**
 * Replaces a session's name, window and items. Items are matched by SKU, so an item keeps its id,
 * its sales and its customers' counts; the activity stock left moves by the change of the reserved
 * stock and may not drop below what is already sold. An item that priced orders cannot be removed.
 * An enabled session is checked for overlaps again.
 */
export async function updateFlashSale(ctx: ServiceContext, input: unknown): Promise<FlashSaleView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { flashSaleId, ...data } = parseInput(UpdateInput, input);
  return inTransaction(ctx, async (tx) => {
    // Locked: an enable or disable waits, so the items copy the state this edit read.
    const session = await ownSession(tx.em, operator.shopId, flashSaleId, LockMode.PESSIMISTIC_WRITE);
    await checkItems(tx.em, operator.shopId, data);
    tx.em.assign(session, { name: data.name, startsAt: data.startsAt, endsAt: data.endsAt });
    const skuIds = data.items.map((i) => i.skuId);
    await auditedRows(tx, { type: 'FlashSaleItem', column: 'flash_sale_id', value: flashSaleId }, () =>
      refuseIfPricedOrders(tx.em.nativeDelete(FlashSaleItem, { flashSale: flashSaleId, sku: { $nin: skuIds } })),
    );
    // Read without the entity manager: their counters change below through guarded statements.
    const kept = await typedSql(tx.em).selectFrom('FlashSaleItem').select(['id', 'sku']).where('flashSale', '=', flashSaleId).orderBy('id').execute();
    const wanted = new Map(data.items.map((i) => [i.skuId, i]));
    for (const { id, sku } of kept) {
      await updateItem(tx.em, session, id, wanted.get(sku)!);
      wanted.delete(sku);
    }
    const created = [...wanted.values()].map((item) => createItem(tx.em, session, item));
    await refuseIfOverlapping(tx.em.flush());
    await openActivityStock(tx.em, created);
    return ownView(tx.em, operator.shopId, flashSaleId);
  });
}

export const deleteFlashSaleRefusals = refusals('FLASH_SALE_HAS_ORDERS', 'NOT_FOUND');

/** Deletes a session and its items, unless an item priced an order (the history stays; disable it instead). */
export async function deleteFlashSale(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { flashSaleId } = parseInput(SessionRef, input);
  const deleted = await refuseIfPricedOrders(
    inTransaction(ctx, (tx) => auditedWrite(tx, { type: 'FlashSale', id: flashSaleId }, () => tx.em.nativeDelete(FlashSale, { id: flashSaleId, shop: operator.shopId }))),
  );
  if (deleted === 0) throw notFound('Flash sale', { flash_sale_id: flashSaleId });
}

export const enableFlashSaleRefusals = refusals('FLASH_SALE_OVERLAP', 'NOT_FOUND');

/**
 * Enables a session. The exclusion constraint on the items refuses a SKU that is in another
 * overlapping enabled session, also when two enables race: the second waits for the first and fails.
 */
export const enableFlashSale = (ctx: ServiceContext, input: unknown) => setEnabled(ctx, input, true, refuseIfOverlapping);

export const disableFlashSaleRefusals = refusals('NOT_FOUND');

/** Disables a session: it prices nothing any more; orders already placed keep their prices. */
export const disableFlashSale = (ctx: ServiceContext, input: unknown) => setEnabled(ctx, input, false, (statement) => statement);

/** `refuse` turns what the items' constraints refuse into the answer (only enabling can overlap). */
async function setEnabled(ctx: ServiceContext, input: unknown, enabled: boolean, refuse: <T>(statement: Promise<T>) => Promise<T>): Promise<FlashSaleView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { flashSaleId } = parseInput(SessionRef, input);
  return inTransaction(ctx, async (tx) => {
    // Locked like an edit, so the two never leave the items' copy of `enabled` behind the session's.
    const session = await ownSession(tx.em, operator.shopId, flashSaleId, LockMode.PESSIMISTIC_WRITE);
    tx.em.assign(session, { enabled });
    await tx.em.flush();
    await auditedRows(tx, { type: 'FlashSaleItem', column: 'flash_sale_id', value: flashSaleId }, () => refuse(tx.em.nativeUpdate(FlashSaleItem, { flashSale: flashSaleId }, { enabled })));
    return ownView(tx.em, operator.shopId, flashSaleId);
  });
}

/** The operator's session, or 404. */
async function ownSession(em: EntityManager, shopId: number, flashSaleId: number, lockMode?: LockMode): Promise<FlashSale> {
  const session = await em.findOne(FlashSale, { id: flashSaleId, shop: shopId }, { lockMode });
  if (!session) throw notFound('Flash sale', { flash_sale_id: flashSaleId });
  return session;
}

/** Every SKU must be of the operator's shop (another shop's is 404) and priced below its standard price. */
async function checkItems(em: EntityManager, shopId: number, data: Session): Promise<void> {
  const skus = await em.find(Sku, { id: { $in: data.items.map((i) => i.skuId) }, product: { shop: shopId } });
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

/** The session's window as its items copy it: a half-open `tstzrange`. */
const saleWindow = (session: FlashSale) => `[${session.startsAt.toISOString()},${session.endsAt.toISOString()})`;

/**
 * A new item of the session (written by the next flush), with no activity stock yet: its reserve is
 * inventory's to set (`openActivityStock`, after the flush), as an adjustment movement.
 */
function createItem(em: EntityManager, session: FlashSale, item: ItemInput): { item: FlashSaleItem; reserved: number } {
  const created = em.create(FlashSaleItem, {
    flashSale: session,
    sku: item.skuId,
    activityPrice: item.activityPrice,
    reservedStock: 0,
    remainingStock: 0,
    perCustomerLimit: item.perCustomerLimit,
    enabled: session.enabled,
    saleWindow: saleWindow(session),
  });
  return { item: created, reserved: item.reservedStock };
}

/** New items' whole reserve, still to sell. */
async function openActivityStock(em: EntityManager, created: { item: FlashSaleItem; reserved: number }[]): Promise<void> {
  for (const { item, reserved } of created) await setActivityReserve(em, item.id, reserved);
}

/**
 * An existing item's new terms, with the session's window and state copied in. Its reserve goes
 * through inventory first: the activity stock left moves by the change of the reserved stock (a
 * guarded statement; checkouts take it meanwhile), and an item whose new reserve is below what it has
 * sold refuses the edit.
 */
async function updateItem(em: EntityManager, session: FlashSale, itemId: number, item: ItemInput): Promise<void> {
  if (!(await setActivityReserve(em, itemId, item.reservedStock))) {
    const { sold } = await typedSql(em)
      .selectFrom('FlashSaleItem')
      .select((eb) => eb('reservedStock', '-', eb.ref('remainingStock')).as('sold'))
      .where('id', '=', itemId)
      .executeTakeFirstOrThrow();
    throw refused('FLASH_SALE_RESERVE_BELOW_SOLD', `SKU ${item.skuId} has sold ${sold} activity units; the reserve cannot be smaller`, {
      sku_id: item.skuId,
      sold,
      reserved_stock: item.reservedStock,
    });
  }
  await refuseIfOverlapping(
    typedSql(em)
      .updateTable('FlashSaleItem')
      .set({ activityPrice: item.activityPrice, perCustomerLimit: item.perCustomerLimit, enabled: session.enabled, saleWindow: saleWindow(session) })
      .where('id', '=', itemId)
      .execute(),
  );
}

/** A statement whose failure may be a refusal the database made, turned into its answer when it is. */
async function refusing<T>(statement: Promise<T>, refusal: (error: unknown) => AppError | undefined): Promise<T> {
  try {
    return await statement;
  } catch (error) {
    throw refusal(error) ?? error;
  }
}

/** An enabled session's SKU in another overlapping enabled session: the exclusion constraint refuses it. */
const refuseIfOverlapping = <T>(statement: Promise<T>) =>
  refusing(statement, (error) => {
    for (const e of causeChain(error)) {
      if (e.code !== '23P01' || e.constraint !== 'flash_sale_item_no_overlap') continue;
      const skuId = /\(sku_id, sale_window\)=\((\d+),/.exec(typeof e.detail === 'string' ? e.detail : '')?.[1];
      return conflict('FLASH_SALE_OVERLAP', 'A SKU of this session is in another enabled session with an overlapping window', {
        ...(skuId ? { sku_id: Number(skuId) } : {}),
      });
    }
    return undefined;
  });

/** Deleting an item that priced orders: their foreign key refuses it (the history stays). */
const refuseIfPricedOrders = <T>(statement: Promise<T>) =>
  refusing(statement, (error) => {
    for (const e of causeChain(error)) {
      if (e.code === '23503' && e.constraint === 'order_item_flash_sale_item_id_foreign') {
        return conflict('FLASH_SALE_HAS_ORDERS', 'An item of this session priced orders; disable the session instead');
      }
    }
    return undefined;
  });

/** The operator's session as a view, read afresh (guarded statements changed its items behind the entity manager). */
async function ownView(em: EntityManager, shopId: number, flashSaleId: number): Promise<FlashSaleView> {
  const session = await em.findOne(FlashSale, { id: flashSaleId, shop: shopId }, { populate: VIEW_POPULATE, refresh: true });
  if (!session) throw notFound('Flash sale', { flash_sale_id: flashSaleId });
  return flashSaleView(session, new Date(), false);
}

/** Where `now` falls in the window `[startsAt, endsAt)`. */
function stateAt(session: FlashSale, now: Date): FlashSaleState {
  if (now < session.startsAt) return FlashSaleState.Upcoming;
  return now < session.endsAt ? FlashSaleState.Active : FlashSaleState.Ended;
}

const onSale = (product: { status: ProductStatus }) => product.status === ProductStatus.Published;

/** A session as its view; the public one leaves out items of products not on sale. */
function flashSaleView(session: LoadedSession, now: Date, publicOnly: boolean): FlashSaleView {
  return {
    id: session.id,
    shop: { id: session.shop.id, slug: session.shop.slug, name: session.shop.name },
    name: session.name,
    startsAt: session.startsAt,
    endsAt: session.endsAt,
    enabled: session.enabled,
    state: stateAt(session, now),
    items: session.items
      .getItems()
      .filter((i) => !publicOnly || onSale(i.sku.product))
      .map((i) => ({
        id: i.id,
        skuId: i.sku.id,
        skuName: i.sku.name,
        productId: i.sku.product.id,
        productName: i.sku.product.name,
        standardPrice: i.sku.price,
        activityPrice: i.activityPrice,
        reservedStock: i.reservedStock,
        remainingStock: i.remainingStock,
        perCustomerLimit: i.perCustomerLimit,
      })),
  };
}
