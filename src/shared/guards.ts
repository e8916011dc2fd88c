import { forbidden, unauthenticated, AppError } from '../errors.js';
import type { ShopRole } from '../entities/shop-membership.entity.js';
import type { Actor, ServiceContext } from './context.js';
import { SHOP_HEADER } from './acting-shop.js';
import { grantOf, isShopPermission, Permission, type Grant } from './permissions.js';

/** The caller, or 401 (saying why when a token was sent but refused). */
export function requireUser(ctx: ServiceContext): Actor {
  if (ctx.actor) return ctx.actor;
  if (ctx.authProblem === 'TOKEN_EXPIRED') throw new AppError('TOKEN_EXPIRED', 401, 'Your session has expired; sign in again');
  if (ctx.authProblem === 'TOKEN_INVALID') throw new AppError('TOKEN_INVALID', 401, 'The bearer token is not valid; sign in again');
  throw unauthenticated();
}

/** The 403 of a caller without `permission`, saying what to do when it is a shop's and no shop is chosen. */
function refusal(actor: Actor, permission: Permission): AppError {
  if (actor.shopId === null && isShopPermission(permission)) {
    if (actor.shopProblem === 'SHOP_NOT_CHOSEN') return forbidden(`You belong to several shops: name the one this request acts for in the ${SHOP_HEADER} header`);
    if (actor.shopProblem === 'NOT_A_MEMBER') return forbidden(`You are not a member of the shop named in ${SHOP_HEADER}`);
    if (actor.shopProblem === 'SHOP_ID_INVALID') return forbidden(`${SHOP_HEADER} must be a shop's id`);
  }
  return forbidden(`This needs the ${permission} permission`);
}

/**
 * The caller holding `permission` (src/shared/permissions.ts), and through what: `shop` (a role in
 * the acting shop, `actor.shopId`), `platform` (a platform role), `account` or `anyone`. 401 without
 * a caller (unless public), 403 without the permission. The door checks the same declaration first.
 */
export function requirePermission(ctx: ServiceContext, permission: Permission): { actor: Actor | null; grant: Grant } {
  if (permission === Permission.Public) return { actor: ctx.actor, grant: 'anyone' };
  const actor = requireUser(ctx);
  const grant = grantOf(actor, permission);
  if (!grant) throw refusal(actor, permission);
  return { actor, grant };
}

/** A customer acting for itself. */
export const requireCustomer = (ctx: ServiceContext): Actor => requirePermission(ctx, Permission.Customer).actor as Actor;

/** A member of the acting shop whose role gives `permission`, with that shop. */
export function requireShopPermission(ctx: ServiceContext, permission: Permission): Actor & { shopId: number; shopRole: ShopRole } {
  const { actor, grant } = requirePermission(ctx, permission);
  if (grant !== 'shop') throw refusal(actor as Actor, permission);
  return actor as Actor & { shopId: number; shopRole: ShopRole };
}

/** Platform staff whose platform role gives `permission`. */
export function requirePlatformPermission(ctx: ServiceContext, permission: Permission): Actor {
  const { actor, grant } = requirePermission(ctx, permission);
  if (grant !== 'platform') throw refusal(actor as Actor, permission);
  return actor as Actor;
}

/** The caller and the first of `permissions` it holds, with how (a door that serves several kinds of staff); refused as for the first. */
export function grantOfAny(ctx: ServiceContext, permissions: readonly Permission[]): { actor: Actor; grant: Grant } {
  const actor = requireUser(ctx);
  for (const permission of permissions) {
    const grant = grantOf(actor, permission);
    if (grant) return { actor, grant };
  }
  throw refusal(actor, permissions[0]);
}

/** A caller holding one of `permissions` (a door that serves several kinds of staff); refused as for the first. */
export function requireAnyPermission(ctx: ServiceContext, permissions: readonly Permission[]): void {
  for (const permission of permissions.slice(1)) {
    if (permission === Permission.Public || (ctx.actor && grantOf(ctx.actor, permission))) return;
  }
  requirePermission(ctx, permissions[0]);
}
