import { sql } from 'kysely';
import { captureChanges, REDACTED, SECRET_COLUMN, type CapturedChange } from '../db/change-capture.js';
import { typedSql } from '../db/typed-sql.js';
import type { ServiceContext } from './context.js';
import { auditedActor, type PendingAudit } from './audit-actor.js';
import { storeAuditEntries } from './audit.repository.js';

/**
 * The audit log (issue 41, item 5): every row a shop member or platform staff changes, recorded by
 * the transaction that changes it. `inTransaction` starts the audit of an audited caller's use case:
 * the rows its entity flushes write are captured from the ORM's change sets (db/change-capture.ts),
 * the rows its SQL statements write are recorded by the use case (`recordChange`), and all of them
 * are stored by one statement just before commit. A rolled-back use case stores nothing; no entry
 * exists without its write. A customer's use case starts nothing and pays nothing.
 */
export type { PendingAudit };

/** The audit of a use case about to run on `em` (its transaction's manager); none for a caller who is not audited. */
export function startAudit(ctx: ServiceContext, em: ServiceContext['em']): PendingAudit | undefined {
  const actor = auditedActor(ctx.actor);
  if (!actor) return undefined;
  const pending: PendingAudit = { actor, changes: [] };
  captureChanges(em, pending.changes);
  return pending;
}

/**
 * Audits the rest of a use case as `actor` although its caller is not audited: a customer who joins a
 * shop's or the platform's staff by accepting an invitation, recorded in the role they join with (the
 * moment someone gains a staff role is a staff write too). A caller already audited keeps its own.
 */
export function auditAs(tx: ServiceContext, actor: PendingAudit['actor']): void {
  if (tx.pendingAudit || !tx.pendingEvents) return;
  const pending: PendingAudit = { actor, changes: [] };
  captureChanges(tx.em, pending.changes);
  tx.pendingAudit = pending;
}

/** A row a use case changed through SQL rather than an entity, as the use case knows it. */
export interface RecordedChange {
  type: string;
  id: number | string;
  action: CapturedChange['action'];
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** The shop the row belongs to, when it has one. */
  shopId?: number | null;
}

/**
 * Records a row the use case wrote through SQL (the ORM's flushes are captured by themselves). A
 * no-op for a caller who is not audited, so shared write paths (stock, the ledger) may call it freely.
 */
export function recordChange(tx: ServiceContext, change: RecordedChange): void {
  if (!tx.pendingAudit) return;
  tx.pendingAudit.changes.push({
    type: change.type,
    id: String(change.id),
    action: change.action,
    before: change.action === 'create' ? null : (change.before ?? {}),
    after: change.action === 'delete' ? null : (change.after ?? {}),
    shopId: change.shopId ?? null,
  });
}

/**
 * What the operation is called in the log when no door named it: a use case run by a script or a
 * test with a staff actor. The doors always name theirs (REST by its route, GraphQL by its field).
 */
export const UNNAMED_OPERATION = 'unnamed';

/** Stores the audit's entries (one statement; nothing when the use case changed no row). */
export async function storeAudit(tx: ServiceContext, pending: PendingAudit): Promise<void> {
  if (pending.changes.length === 0) return;
  const { actor } = pending;
  const entries = pending.changes.map((c) => ({
    // The member acts for their shop; platform staff act on the shop of the row they changed.
    shop_id: actor.shopId ?? c.shopId,
    target_type: c.type,
    target_id: c.id,
    action: c.action,
    before: c.before,
    after: c.after,
  }));
  await storeAuditEntries.run(tx.em, [actor.userId, actor.role, tx.operation ?? UNNAMED_OPERATION, tx.requestId, JSON.stringify(entries)]);
}

/** The rows whose `column` is `value`, as the database holds them (by column name), by their key as text. Audited callers only. */
async function rowsSnapshot(tx: ServiceContext, type: string, column: string | null, value: number | string): Promise<Map<string, Record<string, unknown>>> {
  const meta = tx.em.getMetadata().getByClassName(type);
  const key = meta.getPrimaryProp().fieldNames[0];
  const { rows } = await sql<{ row: Record<string, unknown> }>`select to_jsonb(t) as row from ${sql.table(meta.tableName)} t where ${sql.ref(`t.${column ?? key}`)} = ${value}`.execute(typedSql(tx.em));
  return new Map(rows.map(({ row }) => [String(row[key]), row]));
}

/** Records what differs between a row's two snapshots (nothing when nothing does). */
function recordDifference(tx: ServiceContext, type: string, id: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): void {
  if (!before && !after) return;
  const changed = Object.keys({ ...before, ...after }).filter((key) => JSON.stringify(before?.[key]) !== JSON.stringify(after?.[key]));
  if (before && after && changed.length === 0) return;
  const pick = (row: Record<string, unknown> | undefined) => row && Object.fromEntries(changed.map((key) => [key, SECRET_COLUMN.test(key) && row[key] != null ? REDACTED : row[key]]));
  const row = after ?? before ?? {};
  const shopId = type === 'Shop' ? row.id : row.shop_id;
  recordChange(tx, {
    type,
    id,
    action: !before ? 'create' : !after ? 'delete' : 'update',
    before: pick(before),
    after: pick(after),
    shopId: typeof shopId === 'number' ? shopId : null,
  });
}

/**
 * Runs a write made through SQL between two snapshots of the row it changes (`type` is its entity's
 * name, `id` its key; a row the write creates is found by `createdId` from the write's result), and
 * records the fields that differ. An audited caller pays two reads of one row by its key; any other
 * caller runs the write alone.
 */
export async function auditedWrite<T>(
  tx: ServiceContext,
  target: { type: string; id: number | string } | { type: string; createdId: (result: T) => number | string },
  write: () => Promise<T>,
): Promise<T> {
  if (!tx.pendingAudit) return write();
  const before = 'id' in target ? await rowsSnapshot(tx, target.type, null, target.id) : new Map<string, Record<string, unknown>>();
  const result = await write();
  const id = String('id' in target ? target.id : target.createdId(result));
  const after = await rowsSnapshot(tx, target.type, null, id);
  recordDifference(tx, target.type, id, before.get(id), after.get(id));
  return result;
}

/**
 * The same for a write of several rows of one type, all of them those whose `column` is `value` (a
 * product's SKUs, a template's regions): each row created, changed or deleted is recorded.
 */
export async function auditedRows<T>(tx: ServiceContext, target: { type: string; column: string; value: number | string }, write: () => Promise<T>): Promise<T> {
  if (!tx.pendingAudit) return write();
  const before = await rowsSnapshot(tx, target.type, target.column, target.value);
  const result = await write();
  const after = await rowsSnapshot(tx, target.type, target.column, target.value);
  for (const id of new Set([...before.keys(), ...after.keys()])) recordDifference(tx, target.type, id, before.get(id), after.get(id));
  return result;
}
