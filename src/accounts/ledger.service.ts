import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../errors.js';
import { BASE_CURRENCY } from '../currency.js';
import { BalanceKind } from '../entities/balance.entity.js';
import { intArray } from '../db/sql.js';

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

function assertPositive(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`ledger amount must be a positive integer, got ${amount}`);
}

/** Zero rows for new customers: available and frozen in the base currency, points without one. */
export async function createZeroBalances(em: EntityManager, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await em.execute(
    `insert into balance (user_id, kind, currency, amount)
     select u.id, k.kind, k.currency, 0
       from unnest(?::int[]) as u(id)
       cross join (values ('available', ?::varchar), ('frozen', ?::varchar), ('points', null::varchar)) as k(kind, currency)
     on conflict do nothing`,
    [intArray(userIds), BASE_CURRENCY.code, BASE_CURRENCY.code],
  );
}

async function change(em: EntityManager, change: LedgerChange, sign: 1 | -1): Promise<number | null> {
  assertPositive(change.amount);
  const guard = sign < 0 ? 'and amount >= ?' : '';
  const params: unknown[] = [sign * change.amount, change.userId, change.kind];
  if (sign < 0) params.push(change.amount);
  params.push(sign * change.amount, change.reason, change.reference?.type ?? null, change.reference?.id ?? null);
  const rows = await em.execute<{ balance_after: string | number }[]>(
    `with changed as (
       update balance set amount = amount + ? where user_id = ? and kind = ? ${guard} returning id, amount
     )
     insert into ledger_entry (balance_id, delta, balance_after, reason, reference_type, reference_id, created_at)
     select id, ?, amount, ?, ?, ?, now() from changed
     returning balance_after`,
    params,
  );
  return rows.length > 0 ? Number(rows[0].balance_after) : null;
}

/** Guarded debit: refuses (422) and changes nothing when the balance is short. Returns the new balance. */
export async function debit(em: EntityManager, entry: LedgerChange): Promise<number> {
  const after = await change(em, entry, -1);
  if (after === null) {
    throw entry.kind === BalanceKind.Points
      ? refused('INSUFFICIENT_POINTS', 'Not enough points', { required: entry.amount })
      : refused('INSUFFICIENT_FUNDS', 'Not enough funds in your balance', { required: entry.amount, kind: entry.kind });
  }
  return after;
}

/** Atomic credit. Returns the new balance. */
export async function credit(em: EntityManager, entry: LedgerChange): Promise<number> {
  const after = await change(em, entry, 1);
  if (after === null) throw new Error(`no ${entry.kind} balance row for user ${entry.userId}`);
  return after;
}

type Move = Omit<LedgerChange, 'kind'>;

/** Moves money from available to frozen (a guarded debit and a credit, in the caller's transaction). */
export async function freeze(em: EntityManager, move: Move): Promise<void> {
  await debit(em, { ...move, kind: BalanceKind.Available });
  await credit(em, { ...move, kind: BalanceKind.Frozen });
}

/** Moves frozen money back to available (both rows locked first, in the order `freeze` takes them). */
export async function release(em: EntityManager, move: Move): Promise<void> {
  await lockBalances(em, [move.userId]);
  await debit(em, { ...move, kind: BalanceKind.Frozen });
  await credit(em, { ...move, kind: BalanceKind.Available });
}

/**
 * Locks the money balances (available, frozen) of several users in one order, by user then kind,
 * the order `freeze` takes them in. A use case that will move several users' money (settling a
 * group) calls it before touching any, so two of them sharing users queue instead of deadlocking.
 */
export async function lockBalances(em: EntityManager, userIds: number[]): Promise<void> {
  await em.execute(
    `select id from balance where user_id = any(?::int[]) and kind in ('available', 'frozen') order by user_id, kind for no key update`,
    [intArray([...new Set(userIds)])],
  );
}

export interface BalanceView {
  kind: BalanceKind;
  currency: string | null;
  amount: number;
}

export async function balancesOf(em: EntityManager, userId: number): Promise<BalanceView[]> {
  const rows = await em.execute<{ kind: BalanceKind; currency: string | null; amount: string }[]>(
    `select kind, currency, amount from balance where user_id = ? order by kind`,
    [userId],
  );
  return rows.map((r) => ({ kind: r.kind, currency: r.currency, amount: Number(r.amount) }));
}
