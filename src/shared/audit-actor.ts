import type { PlatformRole } from '../entities/user.entity.js';
import type { ShopRole } from '../entities/shop-membership.entity.js';
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
 * anonymous callers or the server's own sweeps. The one place that says so. The role recorded is the
 * platform role (`platform_admin`, `platform_finance`...) or the member's role in the shop the request
 * acts for (`shop_owner`, `shop_finance`...).
 */
export function auditedActor(actor: { userId: number; shopId: number | null; shopRole: ShopRole | null; platformRole: PlatformRole | null } | null): AuditedActor | null {
  if (!actor) return null;
  // Platform staff first: a staff account acts for the platform (its entries take the changed row's shop).
  if (actor.platformRole) return { userId: actor.userId, role: `platform_${actor.platformRole}`, shopId: null };
  if (actor.shopRole && actor.shopId !== null) return { userId: actor.userId, role: `shop_${actor.shopRole}`, shopId: actor.shopId };
  return null;
}
