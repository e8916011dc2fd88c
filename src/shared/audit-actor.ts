import { Role } from '../entities/user.entity.js';
import type { CapturedChange } from '../db/change-capture.js';

/** Who an audited write is recorded as. */
export interface AuditedActor {
  userId: number;
  /** The role they wrote in. */
  role: string;
  /** The shop they act for; null for platform staff (an entry then takes the shop of the row it changed). */
  shopId: number | null;
}

/** The audit of one use case's transaction (src/shared/audit.ts): who writes, and the rows written so far. */
export interface PendingAudit {
  actor: AuditedActor;
  changes: CapturedChange[];
}

/**
 * Whose writes are audited, and in which role: shop members and platform staff, never customers,
 * anonymous callers or the server's own sweeps. The one place that says so: with shop memberships
 * the role becomes the member's role in the shop the request acts for.
 */
export function auditedActor(actor: { userId: number; role: Role; shopId: number | null } | null): AuditedActor | null {
  if (!actor) return null;
  if (actor.role === Role.ShopOperator) return { userId: actor.userId, role: actor.role, shopId: actor.shopId };
  if (actor.role === Role.PlatformAdmin) return { userId: actor.userId, role: actor.role, shopId: null };
  return null;
}
