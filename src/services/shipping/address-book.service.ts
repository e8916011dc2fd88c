import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, refused } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { SavedAddress } from '../../entities/saved-address.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { inTransaction } from '../../shared/transaction.js';
import { idParam, parseInput, z } from '../../shared/validate.js';
import { refusals } from '../../error-codes.js';
import { ShippingAddressInput } from './freight-fees.js';
import { listShippingRegions, regionCode, type RegionCode, type RegionView } from './regions.js';
import { id, timestamp } from '../../shared/view-fields.js';

/** A customer keeps at most this many addresses: a book, not a log. */
export const ADDRESS_BOOK_LIMIT = 20;

/** An address of the address book: REST publishes this schema and GraphQL's type is made from it. */
export const SavedAddressView = z
  .strictObject({ id, recipient: z.string(), phone: z.string(), region: regionCode, address: z.string(), isDefault: z.boolean(), createdAt: timestamp })
  .describe("An address of the customer's address book");
export type SavedAddressView = z.infer<typeof SavedAddressView>;

/** An address as checkout takes it, its region one the mall ships to; `isDefault` makes it the default. */
export const SavedAddressInput = ShippingAddressInput.extend({ region: regionCode, isDefault: z.boolean().optional() }).strict();
const AddressChange = SavedAddressInput.partial().strict();

const COLUMNS = ['id', 'recipient', 'phone', 'region', 'address', 'isDefault', 'createdAt'] as const;

/** The regions the mall ships to (public: the storefront shows them before sign-in). */
export function listRegions(): RegionView[] {
  return listShippingRegions();
}

/** A stored address as the view: its region was checked against the regions when it was written (`SavedAddressInput`). */
const asView = <R extends { region: string }>(row: R) => ({ ...row, region: row.region as RegionCode });

/** The caller's addresses: the default first, then newest first. */
export async function listMyAddresses(ctx: ServiceContext): Promise<SavedAddressView[]> {
  const customer = requireCustomer(ctx);
  return typedSql(ctx.em)
    .selectFrom('SavedAddress')
    .select(COLUMNS)
    .where('user', '=', customer.userId)
    .orderBy('isDefault', 'desc')
    .orderBy('id', 'desc')
    .execute()
    .then((rows) => rows.map(asView));
}

/**
 * Every change of a book runs under the customer's row lock: the count against the limit and the one
 * default stay true with concurrent calls (the partial unique index backs the default).
 */
async function lockBook(em: EntityManager, userId: number): Promise<void> {
  await typedSql(em).selectFrom('User').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
}

async function clearDefault(em: EntityManager, userId: number): Promise<void> {
  await typedSql(em).updateTable('SavedAddress').set({ isDefault: false }).where('user', '=', userId).where('isDefault', '=', true).execute();
}

export const addAddressRefusals = refusals('ADDRESS_BOOK_FULL');

/** Saves an address; the first one, or one sent with `isDefault: true`, becomes the default. */
export async function addAddress(ctx: ServiceContext, input: unknown): Promise<SavedAddressView> {
  const customer = requireCustomer(ctx);
  const { isDefault, ...address } = parseInput(SavedAddressInput, input);
  return inTransaction(ctx, async (tx) => {
    await lockBook(tx.em, customer.userId);
    const db = typedSql(tx.em);
    const { count } = await db.selectFrom('SavedAddress').select((eb) => eb.fn.countAll<string>().as('count')).where('user', '=', customer.userId).executeTakeFirstOrThrow();
    if (Number(count) >= ADDRESS_BOOK_LIMIT) {
      throw refused('ADDRESS_BOOK_FULL', `An address book keeps at most ${ADDRESS_BOOK_LIMIT} addresses; delete one first`, { limit: ADDRESS_BOOK_LIMIT });
    }
    const makeDefault = isDefault === true || Number(count) === 0;
    if (makeDefault) await clearDefault(tx.em, customer.userId);
    const saved = tx.em.create(SavedAddress, { ...address, user: customer.userId, isDefault: makeDefault });
    await tx.em.flush();
    return asView({ id: saved.id, recipient: saved.recipient, phone: saved.phone, region: saved.region, address: saved.address, isDefault: saved.isDefault, createdAt: saved.createdAt });
  });
}

export const updateAddressRefusals = refusals('NOT_FOUND');

/**
 * Changes the fields sent. `isDefault: true` moves the default here; `false` on the default is
 * ignored (a book with addresses always has a default: choose another one instead).
 */
export async function updateAddress(ctx: ServiceContext, addressId: unknown, input: unknown): Promise<SavedAddressView> {
  const customer = requireCustomer(ctx);
  const id = parseInput(idParam, addressId);
  const { isDefault, ...fields } = parseInput(AddressChange, input ?? {});
  return inTransaction(ctx, async (tx) => {
    await lockBook(tx.em, customer.userId);
    const db = typedSql(tx.em);
    const current = await db.selectFrom('SavedAddress').select('id').where('id', '=', id).where('user', '=', customer.userId).executeTakeFirst();
    if (!current) throw notFound('Address', { id });
    if (isDefault === true) await clearDefault(tx.em, customer.userId);
    const set = { ...fields, ...(isDefault === true ? { isDefault: true } : {}) };
    const update = db.updateTable('SavedAddress').where('id', '=', id);
    const row = Object.keys(set).length > 0
      ? await update.set(set).returning(COLUMNS).executeTakeFirstOrThrow()
      : await db.selectFrom('SavedAddress').select(COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
    return asView(row);
  });
}

export const setDefaultAddressRefusals = refusals('NOT_FOUND');

/** Makes one of the caller's addresses the default. */
export function setDefaultAddress(ctx: ServiceContext, addressId: unknown): Promise<SavedAddressView> {
  return updateAddress(ctx, addressId, { isDefault: true });
}

export const deleteAddressRefusals = refusals('NOT_FOUND');

/** Deletes one of the caller's addresses; when it was the default, the newest one left takes over. */
export async function deleteAddress(ctx: ServiceContext, addressId: unknown): Promise<void> {
  const customer = requireCustomer(ctx);
  const id = parseInput(idParam, addressId);
  await inTransaction(ctx, async (tx) => {
    await lockBook(tx.em, customer.userId);
    const db = typedSql(tx.em);
    const deleted = await db.deleteFrom('SavedAddress').where('id', '=', id).where('user', '=', customer.userId).returning('isDefault').executeTakeFirst();
    if (!deleted) throw notFound('Address', { id });
    if (!deleted.isDefault) return;
    const newest = await db.selectFrom('SavedAddress').select('id').where('user', '=', customer.userId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (newest) await db.updateTable('SavedAddress').set({ isDefault: true }).where('id', '=', newest.id).execute();
  });
}
