import { AuditEntryView, AuditFieldChangeView } from '../../services/platform/audit-entry-view.js';
import { named, page } from './common.js';

export const AuditFieldChange = named('AuditFieldChange', AuditFieldChangeView);

export const AuditEntry = named('AuditEntry', AuditEntryView);

export const AuditEntryPage = named('AuditEntryPage', page(AuditEntry));
