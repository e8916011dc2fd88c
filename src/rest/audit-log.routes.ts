import type { Router } from 'express';
import * as auditLog from '../services/platform/audit-log.service.js';
import { route } from './route.js';
import { Permission } from '../shared/permissions.js';
import { AuditEntryPage } from './responses/audit.js';

const tag = 'Audit log';

/** The audit log: every entry for platform admins, their own shop's for a shop's members. One service call, one GraphQL field (`auditEntries`). */
export function auditLogRoutes(router: Router) {
  route(router, '/admin/audit-entries', {
    get: {
      doc: {
        tag, summary: 'Every write of shop members and platform staff, newest first, by shop, actor, operation, target and time', permission: Permission.PlatformAuditRead,
        description: '`to` must be after `from`; `target_id` needs `target_type`.',
        query: auditLog.AuditLogInput, response: AuditEntryPage, errors: auditLog.listAuditEntriesRefusals,
      },
      handle: ({ ctx, query }) => auditLog.listAuditEntries(ctx, query),
    },
  });
  route(router, '/merchant/audit-entries', {
    get: {
      doc: {
        tag, summary: "Your shop's audit log: its members' writes and the platform's writes on it, newest first", permission: Permission.ShopAuditRead,
        description: 'A `shop_id` other than your own shop is refused (403). `to` must be after `from`; `target_id` needs `target_type`.',
        query: auditLog.AuditLogInput, response: AuditEntryPage, errors: auditLog.listAuditEntriesRefusals,
      },
      handle: ({ ctx, query }) => auditLog.listAuditEntries(ctx, query),
    },
  });
}
