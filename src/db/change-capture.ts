import { helper, Reference, Utils, type ChangeSet, type EntityManager, type EventSubscriber, type FlushEventArgs } from '@mikro-orm/core';

/** One row an entity flush wrote, as the audit log records it (src/shared/audit.ts). */
export interface CapturedChange {
  /** The entity's name (`Product`). */
  type: string;
  /** Its primary key as text; a composite key's parts joined by `:`. */
  id: string;
  action: 'create' | 'update' | 'delete';
  /** The changed columns' values before (null for a created row), by column name. */
  before: Record<string, unknown> | null;
  /** Their values after (null for a deleted row), by column name. */
  after: Record<string, unknown> | null;
  /** The shop the row belongs to, when it is a shop or has a `shop` (`shopId`) of its own. */
  shopId: number | null;
}

/**
 * Bookkeeping rows that are not a member's write: the outbox, idempotency answers, sessions and
 * sign-in counters. Their changes are left out of the log.
 */
const NOT_AUDITED = new Set(['Event', 'EventSequence', 'IdempotencyKey', 'AuthToken', 'AuthAttemptCount', 'AuditEntry']);

/** Values the log must never hold, by property name: they are logged as changed, never as what they are. */
export const SECRET_COLUMN = /password|secret|token|hash/i;
export const REDACTED = '[redacted]';

/** The entity managers whose flushes are captured, with where their changes go. */
const sinks = new WeakMap<EntityManager, CapturedChange[]>();

/**
 * Captures every row the flushes of `em` write into `into` (from now until the manager is dropped).
 * Only audited work registers: for any other manager a flush costs one map lookup.
 */
export function captureChanges(em: EntityManager, into: CapturedChange[]): void {
  sinks.set(em, into);
}

/** A change set read before it runs, finished once it ran (a created row has its id only then). */
interface Started {
  changeSet: ChangeSet<object>;
  action: CapturedChange['action'];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const started = new WeakMap<EntityManager, Started[]>();

/**
 * The ORM's flush events (registered in orm.ts): the change sets are read when they are known
 * (`onFlush`), before they run (a later flush replaces an entity's original data), and finished after
 * they ran (`afterFlush`), when created rows have their ids.
 */
export class ChangeCapture implements EventSubscriber {
  onFlush({ em, uow }: FlushEventArgs): void {
    if (!sinks.has(em)) return;
    const list: Started[] = [];
    for (const changeSet of uow.getChangeSets()) {
      if (NOT_AUDITED.has(changeSet.meta.className)) continue;
      const action = changeSet.type.startsWith('delete') ? 'delete' : changeSet.type.startsWith('update') ? 'update' : 'create';
      const original = (changeSet.originalEntity ?? {}) as Record<string, unknown>;
      const payload = changeSet.payload as Record<string, unknown>;
      const changed = action === 'delete' ? Object.keys(original) : Object.keys(payload);
      list.push({
        changeSet,
        action,
        before: action === 'create' ? null : Object.fromEntries(changed.map((key) => [key, original[key]])),
        after: action === 'delete' ? null : { ...payload },
      });
    }
    started.set(em, list);
  }

  afterFlush({ em }: FlushEventArgs): void {
    const into = sinks.get(em);
    const list = started.get(em);
    if (!into || !list) return;
    started.delete(em);
    for (const { changeSet, action, before, after } of list) {
      const meta = changeSet.meta;
      // After the flush a created row has its key on the entity; a deleted one still carries it.
      const row = changeSet.entity as Record<string, unknown>;
      const original = changeSet.originalEntity as Record<string, unknown> | undefined;
      const id = meta.primaryKeys.map((key) => String(plain(row[key] ?? original?.[key]))).join(':');
      const properties = meta.properties as Record<string, { fieldNames?: string[] } | undefined>;
      const column = (key: string) => properties[key]?.fieldNames?.[0] ?? key;
      into.push({ type: meta.className, id, action, before: cleaned(before, column), after: cleaned(after, column), shopId: shopOf(meta.className, changeSet.entity) });
    }
  }
}

/** An entity or reference is logged as its id; a not-yet-inserted one's id is known after the flush. */
function plain(value: unknown): unknown {
  if (value instanceof Date || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plain);
  if (Reference.isReference(value)) return plain(value.unwrap());
  if (Utils.isEntity(value)) return helper(value).getSerializedPrimaryKey();
  if (typeof (value as { getValue?: unknown }).getValue === 'function') return (value as { getValue: () => unknown }).getValue();
  return value;
}

/** The values by column name (as the database and REST spell them), secrets redacted. */
function cleaned(values: Record<string, unknown> | null, column: (key: string) => string): Record<string, unknown> | null {
  if (!values) return null;
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [column(key), SECRET_COLUMN.test(key) && value != null ? REDACTED : plain(value)]));
}

/** The shop of a row: a shop's own id, or its `shop` (`shopId`) when it has one. */
function shopOf(type: string, entity: object): number | null {
  const row = entity as Record<string, unknown>;
  const value = type === 'Shop' ? row.id : (row.shop ?? row.shopId);
  const id = plain(value);
  return typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : null;
}
