import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../entities/audit-entry.entity.js';
import { id, named, page, timestamp } from './common.js';

/** A value as the log holds it, as JSON text (a secret is `"[redacted]"`). */
const loggedValue = z.string().nullable().describe('The column\'s value as JSON text (`"draft"`, `12`, `null`); null where the row did not exist');

export const AuditFieldChange = named(
  'AuditFieldChange',
  z.strictObject({ field: z.string().describe('The column, as the database names it'), before: loggedValue, after: loggedValue }),
);

export const AuditEntry = named(
  'AuditEntry',
  z.strictObject({
    id: z.string().regex(/^\d+$/).describe('The entry\'s id (a decimal integer, growing): `before_id` reads on from it'),
    occurredAt: timestamp,
    actorId: id,
    actorEmail: z.string().nullable(),
    actorRole: z.string().describe('The role the actor wrote in'),
    shopId: id.nullable().describe('The shop the write was for; null for a platform row (a brand, an account)'),
    shopName: z.string().nullable().describe("That shop's name; null for a platform row"),
    operation: z.string().describe('The operation, by its GraphQL field name (the same through REST)'),
    targetType: z.string().describe('The changed row\'s type (`Product`)'),
    targetId: z.string().describe('The changed row\'s id, as text'),
    targetName: z.string().nullable().describe("The changed row's name (a product's, a shop's, a user's; a SKU's product and SKU, an order's number and customer); null when the row is gone or its type has none"),
    action: z.enum(AUDIT_ACTIONS),
    changes: z.array(AuditFieldChange).describe('The fields the write changed: every field of a created or deleted row'),
    requestId: z.string().describe('The request\'s id (`X-Request-Id`)'),
  }),
);

export const AuditEntryPage = named('AuditEntryPage', page(AuditEntry));
