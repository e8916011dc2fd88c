import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../../errors.js';
import { BASE_CURRENCY } from '../../currency.js';
import { Balance, BalanceKind, CLEARING_SLOTS, SHOP_KINDS, type ClearingKind } from '../../entities/balance.entity.js';
import { z } from '../../shared/validate.js';
import { typedSql } from '../../db/typed-sql.js';

/**
 * The only code that changes a balance. Each primitive is one statement: the guarded update and the
 * ledger entry with the resulting balance are written together, so they cannot drift apart. Money
 * moves only by `transfer` (double entry: two accounts, two entries, one statement); points, which
 * are not money, change alone. Call them with the entity manager of the use case's transaction.
 */

import { type LedgerReason } from '../../entities/ledger-entry.entity.js';

export { LEDGER_REASONS, type LedgerReason } from '../../entities/ledger-entry.entity.js';

export interface LedgerChange {
  userId: number;
  kind: BalanceKind;
  amount: number;
  reason: LedgerReason;
  reference?: { type: string; id: number };
}

/** A change of a balance the primitive's name says. */
type Move = Omit<LedgerChange, 'kind'>;

function assertPositive(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`ledger amount must be a positive integer, got ${amount}`);
}

/** A customer's accounts: available and frozen money in the base currency, points without one. */
const CUSTOMER_ACCOUNTS = [
  { kind: BalanceKind.Available, currency: BASE_CURRENCY.code },
  { kind: BalanceKind.Frozen, currency: BASE_CURRENCY.code },
  { kind: BalanceKind.Points, currency: null },
] as const;

/** Zero rows of a customer's accounts for new customers. */
export async function createZeroBalances(em: EntityManager, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  for (const user of userIds) {
    for (const { kind, currency } of CUSTOMER_ACCOUNTS) em.create(Balance, { user, kind, currency, amount: 0 });
  }
  // Written now: the ledger primitives that usually follow are statements of their own.
  await em.flush();
}

/**
 * Gives `userId` the zero balances a customer holds, where it has none yet: an account that was made
 * staff without ever being a customer (the demo seed's admins) and becomes a customer's. Balances
 * that exist are left as they are (the owner-kind unique key).
 */
export async function ensureZeroBalances(em: EntityManager, userId: number): Promise<void> {
  await sql`insert into balance (user_id, shop_id, kind, currency, amount)
    select ${userId}, null, a.kind, a.currency, 0
      from unnest(${CUSTOMER_ACCOUNTS.map((a) => a.kind)}::text[], ${CUSTOMER_ACCOUNTS.map((a) => a.currency)}::text[]) as a(kind, currency)
    on conflict do nothing`.execute(typedSql(em));
}

/**
 * `update balance ... returning` feeding `insert into ledger_entry ... select` in one statement; a
 * debit's guard (`amount >= k`) leaves the update, and so the insert, without a row.
 */
async function change(em: EntityManager, change: LedgerChange, sign: 1 | -1): Promise<number | null> {
  assertPositive(change.amount);
  const delta = sign * change.amount;
  const row = await typedSql(em)
    .with('changed', (db) =>
      db
        .updateTable('Balance')
        .set((eb) => ({ amount: eb('amount', '+', delta) }))
        .where('user', '=', change.userId)
        .where('kind', '=', change.kind)
        .$if(sign < 0, (q) => q.where('amount', '>=', change.amount))
        .returning(['id', 'amount']),
    )
    .insertInto('LedgerEntry')
    .columns(['balance', 'delta', 'balanceAfter', 'reason', 'referenceType', 'referenceId', 'createdAt'])
    .expression((eb) =>
      eb
        .selectFrom('changed')
        .select([
          'changed.id',
          // Parameters in a select list have no column to take their type from: cast them.
          eb.cast<number>(eb.val(delta), 'bigint').as('delta'),
          'changed.amount',
          eb.cast<string>(eb.val(change.reason), 'varchar').as('reason'),
          eb.cast<string | null>(eb.val(change.reference?.type ?? null), 'varchar').as('referenceType'),
          eb.cast<number | null>(eb.val(change.reference?.id ?? null), 'integer').as('referenceId'),
          sql<Date>`now()`.as('createdAt'),
        ]),
    )
    .returning('balanceAfter')
    .executeTakeFirst();
  return row ? row.balanceAfter : null;
}

/** Guarded debit of points: refuses (422 INSUFFICIENT_POINTS) and changes nothing when they are short. Returns the new balance. */
export async function debitPoints(em: EntityManager, entry: Move): Promise<number> {
  const after = await change(em, { ...entry, kind: BalanceKind.Points }, -1);
  if (after === null) throw refused('INSUFFICIENT_POINTS', 'Not enough points', { required: entry.amount });
  return after;
}

/**
 * A debit of points the caller read under their row's lock. Short, the books are broken: a fault of
 * the server (500, logged), never a refusal a customer could act on.
 */
export async function debitHeld(em: EntityManager, entry: LedgerChange & { kind: BalanceKind.Points }): Promise<void> {
  const after = await change(em, entry, -1);
  if (after === null) throw new Error(`the ${entry.kind} balance of user ${entry.userId} is short of ${entry.amount}: the ledger is inconsistent`);
}

/**
 * A credit. Points are credited alone (they are not money). Money enters the mall: a transfer from
 * `platform_clearing` (a deposit: the seed's funds, a test's), so the books stay at zero.
 */
export async function credit(em: EntityManager, entry: LedgerChange): Promise<void> {
  if (entry.kind === BalanceKind.Points) {
    const after = await change(em, entry, 1);
    if (after === null) throw new Error(`no ${entry.kind} balance row for user ${entry.userId}`);
    return;
  }
  await transfer(em, { from: PLATFORM_CLEARING, to: { user: entry.userId, kind: customerMoneyKind(entry.kind) }, amount: entry.amount, reason: entry.reason, reference: entry.reference });
}

function customerMoneyKind(kind: BalanceKind): BalanceKind.Available | BalanceKind.Frozen {
  if (kind !== BalanceKind.Available && kind !== BalanceKind.Frozen) throw new Error(`${kind} is not a customer's money account`);
  return kind;
}

/** Moves money from available to frozen: one guarded transfer, refused (INSUFFICIENT_FUNDS) when short. */
export async function freeze(em: EntityManager, move: Move): Promise<void> {
  const done = await transfer(em, { from: { user: move.userId, kind: BalanceKind.Available }, to: { user: move.userId, kind: BalanceKind.Frozen }, amount: move.amount, reason: move.reason, reference: move.reference, guarded: true });
  if (!done) throw refused('INSUFFICIENT_FUNDS', 'Not enough funds in your balance', { required: move.amount, kind: BalanceKind.Available });
}

/** Moves frozen money back to available (both rows locked first, in the order `freeze` takes them). */
export async function release(em: EntityManager, move: Move): Promise<void> {
  await lockBalances(em, [move.userId]);
  await transferHeld(em, { from: { user: move.userId, kind: BalanceKind.Frozen }, to: { user: move.userId, kind: BalanceKind.Available }, amount: move.amount, reason: move.reason, reference: move.reference });
}

/** An account of the ledger: a customer's money, a shop's, or one of the platform's clearing accounts (its own, a gateway's). */
export type Account =
  | { user: number; kind: BalanceKind.Available | BalanceKind.Frozen }
  | { shop: number; kind: (typeof SHOP_KINDS)[number] }
  /** `slot`: the row of a gateway's clearing account (balance.entity.ts, CLEARING_SLOTS); 0 by default. */
  | { platform: ClearingKind; slot?: number };

export const PLATFORM_CLEARING: Account = { platform: BalanceKind.PlatformClearing };

/** The row of a gateway's clearing account that a payment's capture and refunds go through (CLEARING_SLOTS). */
export function paymentClearing(kind: ClearingKind, paymentId: number): Account {
  return { platform: kind, slot: paymentId % CLEARING_SLOTS };
}

export interface Transfer {
  from: Account;
  to: Account;
  amount: number;
  reason: LedgerReason;
  reference?: { type: string; id: number };
  /** Take only what the source holds: when it is short nothing moves and `transfer` answers false. */
  guarded?: boolean;
}

function accountIs(account: Account) {
  if ('user' in account) return sql`user_id = ${account.user} and kind = ${account.kind}`;
  if ('shop' in account) return sql`shop_id = ${account.shop} and kind = ${account.kind}`;
  return sql`user_id is null and shop_id is null and kind = ${account.platform} and slot = ${account.slot ?? 0}`;
}

const TransferEntry = z.object({ balance_id: z.number(), balance_after: z.coerce.number() });

/**
 * The one money movement: `amount` leaves one account and enters another, in ONE statement (the
 * source's update, the destination's update and the two entries sharing a transfer id), so a
 * transfer is whole or absent whatever fails. A guarded transfer leaves everything unchanged when the
 * source is short and answers false. A missing account is a fault of the server (thrown: the caller's
 * transaction rolls back).
 */
export async function transfer(em: EntityManager, t: Transfer): Promise<boolean> {
  assertPositive(t.amount);
  // Debt and clearing may go below zero (their sign check says how far): only other sources can be short.
  const mayBeShort = !('platform' in t.from) && t.from.kind !== BalanceKind.ShopDebt;
  const guard = t.guarded && mayBeShort ? sql`and amount >= ${t.amount}` : sql``;
  const { rows } = await sql<{ balance_id: number; balance_after: string }>`
    with src as (
      update balance set amount = amount - ${t.amount} where ${accountIs(t.from)} and currency = ${BASE_CURRENCY.code} ${guard} returning id, amount
    ), dst as (
      update balance set amount = amount + ${t.amount} where ${accountIs(t.to)} and currency = ${BASE_CURRENCY.code} and exists (select 1 from src) returning id, amount
    ), tr as (select nextval('ledger_transfer_seq') as id)
    insert into ledger_entry (balance_id, transfer_id, delta, balance_after, reason, reference_type, reference_id, created_at)
    select src.id, tr.id, ${-t.amount}::bigint, src.amount, ${t.reason}::varchar, ${t.reference?.type ?? null}::varchar, ${t.reference?.id ?? null}::int, now() from src, tr
    union all
    select dst.id, tr.id, ${t.amount}::bigint, dst.amount, ${t.reason}::varchar, ${t.reference?.type ?? null}::varchar, ${t.reference?.id ?? null}::int, now() from dst, tr
    returning balance_id, balance_after`.execute(typedSql(em));
  rows.forEach((row) => TransferEntry.parse(row));
  if (rows.length === 2) return true;
  if (rows.length === 0 && t.guarded) return false;
  throw new Error(`transfer ${t.reason} of ${t.amount} from ${JSON.stringify(t.from)} to ${JSON.stringify(t.to)} found ${rows.length === 0 ? 'no source' : 'no destination'} account`);
}

/** A transfer of money the caller knows is there (frozen for exactly this, or read under lock): short, the books are broken. */
export async function transferHeld(em: EntityManager, t: Omit<Transfer, 'guarded'>): Promise<void> {
  if (!(await transfer(em, { ...t, guarded: true }))) throw new Error(`transfer ${t.reason}: ${JSON.stringify(t.from)} is short of ${t.amount}: the ledger is inconsistent`);
}

/** The shop's accounts, created on first use (a shop is created without them). */
export async function ensureShopAccounts(em: EntityManager, shopIds: readonly number[]): Promise<void> {
  const shops = [...new Set(shopIds)];
  if (shops.length === 0) return;
  // Conflicts: the accounts exist (or a concurrent first use is creating them; its insert decides).
  await sql`insert into balance (user_id, shop_id, kind, currency, amount)
    select null, s.id, k.kind, ${BASE_CURRENCY.code}, 0 from unnest(${shops}::int[]) as s(id), unnest(${[...SHOP_KINDS]}::text[]) as k(kind)
    on conflict do nothing`.execute(typedSql(em));
}

/**
 * Locks the money balances (available, frozen) of several users in one order, by user then kind,
 * the order `freeze` takes them in. A use case that will move several users' money (settling a
 * group) calls it before touching any, so two of them sharing users queue instead of deadlocking.
 */
export async function lockBalances(em: EntityManager, userIds: number[]): Promise<void> {
  const users = [...new Set(userIds)];
  if (users.length === 0) return;
  await typedSql(em)
    .selectFrom('Balance')
    .select('id')
    .where('user', 'in', users)
    .where('kind', 'in', [BalanceKind.Available, BalanceKind.Frozen])
    .orderBy('user')
    .orderBy('kind')
    .forNoKeyUpdate()
    .execute();
}

export interface BalanceView {
  kind: BalanceKind;
  currency: string | null;
  amount: number;
}

/**
 * Read with SQL rather than `em.find`: balances change only through the statements above, which the
 * identity map does not see, so a `Balance` entity loaded earlier in the unit of work could be stale.
 */
export function balancesOf(em: EntityManager, userId: number): Promise<BalanceView[]> {
  return typedSql(em).selectFrom('Balance').select(['kind', 'currency', 'amount']).where('user', '=', userId).orderBy('kind').execute();
}
