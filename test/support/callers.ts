import { PlatformRole, Role } from '../../src/entities/user.entity.js';
import { ShopRole } from '../../src/entities/shop-membership.entity.js';
import { grantOf, Permission, type PermissionHolder } from '../../src/shared/permissions.js';

/** A signed-in caller of a test: its token and what it holds (for the declared permissions). */
export interface Caller {
  token: string;
  holder: PermissionHolder;
}

export const customerHolder: PermissionHolder = { role: Role.Customer, shopRole: null, platformRole: null };
export const memberHolder = (shopRole: ShopRole): PermissionHolder => ({ role: Role.ShopOperator, shopRole, platformRole: null });
export const staffHolder = (platformRole: PlatformRole): PermissionHolder => ({ role: Role.PlatformAdmin, shopRole: null, platformRole });
export const ownerHolder = memberHolder(ShopRole.Owner);
export const adminHolder = staffHolder(PlatformRole.Admin);

/** The token of the first caller that holds `permission` (none for a public operation: anonymous). */
export function allowedToken(permission: Permission, callers: Caller[]): string | undefined {
  if (permission === Permission.Public) return undefined;
  const caller = callers.find((c) => grantOf(c.holder, permission));
  if (!caller) throw new Error(`no caller of the test holds ${permission}`);
  return caller.token;
}

/** The token of the first caller that does not hold `permission` (none when every signed-in caller does). */
export const refusedToken = (permission: Permission, callers: Caller[]): string | undefined =>
  callers.find((c) => !grantOf(c.holder, permission))?.token;
