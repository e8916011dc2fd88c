import { AUDIT_ACTIONS } from '../../entities/audit-entry.entity.js';
import { z } from '../../shared/validate.js';
import { id, timestamp } from '../../shared/view-fields.js';

/**
 * An audit log entry as both doors answer it (audit-log.service.ts): REST publishes these schemas.
 * GraphQL's types stay written in resolvers/types (the id is a GraphQL ID there, and its fields
 * describe GraphQL's own names), held to them by test/one-description.test.ts.
 */

/** A value as the log holds it, as JSON text (a secret is `"[redacted]"`). */
const loggedValue = z.string().nullable().describe('The column\'s value as JSON text (`"draft"`, `12`, `null`); null where the row did not exist');

/**
 * One changed field: its column, and its value before and after as JSON text, so a value of any type
 * reads the same through both doors.
 */
export const AuditFieldChangeView = z.strictObject({ field: z.string().describe('The column, as the database names it'), before: loggedValue, after: loggedValue });
export type AuditFieldChangeView = z.infer<typeof AuditFieldChangeView>;

export const AuditEntryView = z
  .strictObject({
    id: z.string().regex(/^\d+$/).describe('The entry\'s id (a decimal integer, growing): `before_id` reads on from it'),
    occurredAt: timestamp,
    actorId: id,
    // Null when the account is gone.
    actorEmail: z.string().nullable(),
    actorRole: z.string().describe('The role the actor wrote in'),
    shopId: id.nullable().describe('The shop the write was for; null for a platform row (a brand, an account)'),
    // As the console shows it.
    shopName: z.string().nullable().describe("That shop's name; null for a platform row"),
    operation: z.string().describe('The operation, by its GraphQL field name (the same through REST)'),
    targetType: z.string().describe('The changed row\'s type (`Product`)'),
    targetId: z.string().describe('The changed row\'s id, as text'),
    targetName: z.string().nullable().describe("The changed row's name (a product's, a shop's, a user's; a SKU's product and SKU, an order's number and customer); null when the row is gone or its type has none"),
    action: z.enum(AUDIT_ACTIONS),
    changes: z.array(AuditFieldChangeView).describe('The fields the write changed: every field of a created or deleted row'),
    requestId: z.string().describe('The request\'s id (`X-Request-Id`)'),
  })
  .describe('A row a shop member or platform staff changed: who, in which role, for which shop, by which operation, and the fields before and after');
export type AuditEntryView = z.infer<typeof AuditEntryView>;
