import { sql } from 'kysely';
import { forbidden } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import type { ServiceContext } from '../../shared/context.js';
import { grantOfAny } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { dateTime, id, NOT_BLANK, onceFieldsFit, parseInput, z } from '../../shared/validate.js';
import { pageFields, pageFrom, pageWindow, type Page } from '../../shared/pagination.js';
import { auditTargetName } from './audit-target-names.js';
import type { AuditEntryView, AuditFieldChangeView } from './audit-entry-view.js';

/**
 * Reading the audit log (issue 41, item 5; written by src/shared/audit.ts): platform admins read
 * every entry, a shop's member reads their own shop's (an entry of their shop may be an admin's: a
 * suspension, a ruling). Newest first, filtered by shop, actor, operation, target and time. The one
 * pagination shape of every list; `beforeId` reads on from the last entry seen without an offset
 * (a keyset), for an admin walking a long log. Shops, actors and targets are named in the same
 * statement (a target by one scalar read of its key, computed only for the page's rows).
 */

const text = (max: number) => z.string().trim().regex(NOT_BLANK, 'must not be blank').max(max);

export const AuditLogInput = z
  .object({
    ...pageFields,
    /** A shop's entries; a shop member may only name their own shop. */
    shopId: id.optional(),
    /** One user's writes. */
    actorId: id.optional(),
    /** The operation, by its one name (the GraphQL field: `upsertProduct`). */
    operation: text(100).optional(),
    /** The changed row's type (`Product`), and with it its id. */
    targetType: text(60).optional(),
    targetId: text(100).optional(),
    /** Entries at or after this time. */
    from: dateTime.optional(),
    /** Entries before this time. */
    to: dateTime.optional(),
    /** Entries older than this one (its id): the next page without an offset. */
    beforeId: id.optional(),
  })
  .refine((f) => f.targetId === undefined || f.targetType !== undefined, { ...onceFieldsFit, message: 'target_id needs target_type', path: ['targetId'] })
  .refine((f) => !f.from || !f.to || f.from < f.to, { ...onceFieldsFit, message: 'from must be before to', path: ['from'] });

// The JSON columns hold objects by column name (shared/audit.ts writes nothing else).
function changesOf(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditFieldChangeView[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const text = (row: Record<string, unknown> | null, field: string) => (row ? JSON.stringify(row[field] ?? null) : null);
  return fields.map((field) => ({ field, before: text(before, field), after: text(after, field) }));
}

export const listAuditEntriesRefusals = refusals();

/** The log, newest first: all of it for a platform admin, their own shop's for a shop member. */
export async function listAuditEntries(ctx: ServiceContext, input: unknown): Promise<Page<AuditEntryView>> {
  // All of it for platform staff allowed to read it; the acting shop's for its owner.
  const { actor, grant } = grantOfAny(ctx, [Permission.PlatformAuditRead, Permission.ShopAuditRead]);
  const reader = { shopId: grant === 'platform' ? null : actor.shopId };
  const { shopId: askedShop, actorId, operation, targetType, targetId, from, to, beforeId, ...paging } = parseInput(AuditLogInput, input ?? {});
  // A member reads their own shop's entries, never another's (a shop named is checked, not ignored).
  if (reader.shopId !== null && askedShop !== undefined && askedShop !== reader.shopId) throw forbidden("You may read only your own shop's audit log");
  const shopId = reader.shopId ?? askedShop;
  const db = typedSql(ctx.em);
  let entries = db.selectFrom('AuditEntry as a');
  if (shopId !== undefined) entries = entries.where('a.shopId', '=', shopId);
  if (actorId !== undefined) entries = entries.where('a.actorId', '=', actorId);
  if (operation !== undefined) entries = entries.where('a.operation', '=', operation);
  if (targetType !== undefined) entries = entries.where('a.targetType', '=', targetType);
  if (targetId !== undefined) entries = entries.where('a.targetId', '=', targetId);
  if (from) entries = entries.where('a.occurredAt', '>=', from);
  if (to) entries = entries.where('a.occurredAt', '<', to);
  if (beforeId !== undefined) entries = entries.where(sql<boolean>`a.id < ${beforeId}`);
  const rows = await entries
    .leftJoin('User as u', 'u.id', 'a.actorId')
    .leftJoin('Shop as s', 's.id', 'a.shopId')
    .select([
      sql<string>`a.id::text`.as('id'),
      // Aliased one by one: the user has a `shopId` column too, and the join must not blur the two.
      'a.occurredAt as occurredAt', 'a.actorId as actorId', 'u.email as actorEmail', 'a.actorRole as actorRole', 'a.shopId as shopId', 's.name as shopName', 'a.operation as operation',
      'a.targetType as targetType', 'a.targetId as targetId', auditTargetName(db).as('targetName'), 'a.action as action', 'a.before as before', 'a.after as after', 'a.requestId as requestId',
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy(sql`a.id`, 'desc')
    .limit(pageWindow(paging).limit)
    .offset(pageWindow(paging).offset)
    .execute();
  return pageFrom(
    rows,
    paging,
    (r): AuditEntryView => ({
      id: r.id,
      occurredAt: r.occurredAt,
      actorId: r.actorId,
      actorEmail: r.actorEmail ?? null,
      actorRole: r.actorRole,
      shopId: r.shopId,
      shopName: r.shopName ?? null,
      operation: r.operation,
      targetType: r.targetType,
      targetId: r.targetId,
      targetName: r.targetName,
      action: r.action,
      changes: changesOf(r.before as Record<string, unknown> | null, r.after as Record<string, unknown> | null),
      requestId: r.requestId,
    }),
    async () => (await entries.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n,
  );
}
