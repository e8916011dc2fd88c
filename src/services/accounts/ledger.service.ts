import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../../errors.js';
import { BASE_CURRENCY } from '../../currency.js';
import { Balance, BalanceKind } from '../../entities/balance.entity.js';
import { typedSql } from '../../db/typed-sql.js';

/**
 * The only code that changes a balance. Each primitive is one statement: the guarded update and the
 * ledger entry with the resulting balance are written together, so they cannot drift apart. Call
 * them with the entity manager of the use case's transaction.
 */
export interface LedgerChange {
  userId: number;
  kind: BalanceKind;
  amount: number;
  reason: string;
  reference?: { type: string; id: number };
}

/** A change of a balance the primitive's name says. */
type Move = Omit<LedgerChange, 'kind'>;

function assertPositive(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`ledger amount must be a positive integer, got ${amount}`);
}

/** Zero rows for new customers: available and frozen in the base currency, points without one. */
export async function createZeroBalances(em: EntityManager, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  for (const user of userIds) {
    em.create(Balance, { user, kind: BalanceKind.Available, currency: BASE_CURRENCY.code, amount: 0 });
    em.create(Balance, { user, kind: BalanceKind.Frozen, currency: BASE_CURRENCY.code, amount: 0 });
    em.create(Balance, { user, kind: BalanceKind.Points, currency: null, amount: 0 });
  }
  // Written now: the ledger primitives that usually follow are statements of their own.
  await em.flush();
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

/** Guarded debit of spendable money: refuses (422 INSUFFICIENT_FUNDS) and changes nothing when it is short. Returns the new balance. */
export async function debit(em: EntityManager, entry: LedgerChange & { kind: BalanceKind.Available }): Promise<number> {
  const after = await change(em, entry, -1);
  if (after === null) throw refused('INSUFFICIENT_FUNDS', 'Not enough funds in your balance', { required: entry.amount, kind: entry.kind });
  return after;
}

/** Guarded debit of points: refuses (422 INSUFFICIENT_POINTS) and changes nothing when they are short. Returns the new balance. */
export async function debitPoints(em: EntityManager, entry: Move): Promise<number> {
  const after = await change(em, { ...entry, kind: BalanceKind.Points }, -1);
  if (after === null) throw refused('INSUFFICIENT_POINTS', 'Not enough points', { required: entry.amount });
  return after;
}

/**
 * A debit of an amount the caller knows is there: money frozen for exactly this (a group seat), or
 * points read under their row's lock. Short, the books are broken: a fault of the server (500,
 * logged), never a refusal a customer could act on.
 */
export async function debitHeld(em: EntityManager, entry: LedgerChange): Promise<void> {
  const after = await change(em, entry, -1);
  if (after === null) throw new Error(`the ${entry.kind} balance of user ${entry.userId} is short of ${entry.amount}: the ledger is inconsistent`);
}

/** Atomic credit. Returns the new balance. */
export async function credit(em: EntityManager, entry: LedgerChange): Promise<number> {
  const after = await change(em, entry, 1);
  if (after === null) throw new Error(`no ${entry.kind} balance row for user ${entry.userId}`);
  return after;
}


/** Moves money from available to frozen (a guarded debit and a credit, in the caller's transaction). */
export async function freeze(em: EntityManager, move: Move): Promise<void> {
  await debit(em, { ...move, kind: BalanceKind.Available });
  await credit(em, { ...move, kind: BalanceKind.Frozen });
}

/** Moves frozen money back to available (both rows locked first, in the order `freeze` takes them). */
export async function release(em: EntityManager, move: Move): Promise<void> {
  await lockBalances(em, [move.userId]);
  await debitHeld(em, { ...move, kind: BalanceKind.Frozen });
  await credit(em, { ...move, kind: BalanceKind.Available });
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
