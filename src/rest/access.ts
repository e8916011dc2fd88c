import type { ServiceContext } from '../shared/context.js';
import { requirePermission } from '../shared/guards.js';
import type { Permission } from '../shared/permissions.js';

/**
 * The door's check of who may call an operation, by its declared permission, run before anything of
 * the request is read or validated (route.ts): a caller without it learns 401 or 403, never which
 * parameters or fields the operation takes. The use case checks the same permission again (and
 * ownership: another shop's object is 404); this is the same rule, answered first.
 */
export const doorGuard = (permission: Permission) => (ctx: ServiceContext): void => void requirePermission(ctx, permission);
