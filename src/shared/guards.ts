import { forbidden, unauthenticated, AppError } from '../errors.js';
import { Role } from '../entities/user.entity.js';
import type { Actor, ServiceContext } from './context.js';

/** The caller, or 401 (saying why when a token was sent but refused). */
export function requireUser(ctx: ServiceContext): Actor {
  if (ctx.actor) return ctx.actor;
  if (ctx.authProblem === 'TOKEN_EXPIRED') throw new AppError('TOKEN_EXPIRED', 401, 'Your session has expired; sign in again');
  if (ctx.authProblem === 'TOKEN_INVALID') throw new AppError('TOKEN_INVALID', 401, 'The bearer token is not valid; sign in again');
  throw unauthenticated();
}

export function requireRole(ctx: ServiceContext, role: Role): Actor {
  const actor = requireUser(ctx);
  if (actor.role !== role) throw forbidden(`This needs the ${role} role`);
  return actor;
}

export const requireCustomer = (ctx: ServiceContext) => requireRole(ctx, Role.Customer);
export const requireAdmin = (ctx: ServiceContext) => requireRole(ctx, Role.PlatformAdmin);

/** A shop operator and the shop they act for. */
export function requireOperator(ctx: ServiceContext): Actor & { shopId: number } {
  const actor = requireRole(ctx, Role.ShopOperator);
  return actor as Actor & { shopId: number };
}
