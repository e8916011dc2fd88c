import { captureChanges, type CapturedChange } from '../db/change-capture.js';
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
