import { forbidden } from '../errors.js';
import { Role } from '../entities/user.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireAdmin, requireCustomer, requireOperator, requireUser } from '../shared/guards.js';
import type { Access } from './openapi/operation.js';

/**
 * The door's check of who may call an operation, by its documented access level, run before anything
 * of the request is read or validated (route.ts): an anonymous or wrong-role caller learns 401 or 403,
 * never which parameters or fields the operation takes. The use case still checks its own caller
 * (and ownership) as before; this is the same rule, answered first.
 */
export const ACCESS_GUARDS: Record<Access, (ctx: ServiceContext) => void> = {
  public: () => undefined,
  signed_in: (ctx) => void requireUser(ctx),
  customer: (ctx) => void requireCustomer(ctx),
  shop_operator: (ctx) => void requireOperator(ctx),
  platform_admin: (ctx) => void requireAdmin(ctx),
  operator_or_admin: (ctx) => {
    const { role } = requireUser(ctx);
    if (role !== Role.ShopOperator && role !== Role.PlatformAdmin) throw forbidden('This needs the shop_operator or platform_admin role');
  },
};
