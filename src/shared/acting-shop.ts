import type { Actor, Membership } from './context.js';

/** The request header that names the shop a request acts for (docs/api.md). */
export const SHOP_HEADER = 'X-Shop-Id';

/**
 * The actor acting for the shop `requested` names (the `X-Shop-Id` header's value), or, when none is
 * named, for the one shop it belongs to. A member of several shops who names none acts for no shop,
 * and so does one who names a shop it does not belong to: a shop operation then answers 403 saying
 * why (guards.ts). Never guessed from anything else.
 */
export function actingFor(actor: Omit<Actor, 'shopId' | 'shopRole' | 'shopProblem'>, requested: string | undefined): Actor {
  const none = (shopProblem: Actor['shopProblem']): Actor => ({ ...actor, shopId: null, shopRole: null, shopProblem });
  const acting = (m: Membership): Actor => ({ ...actor, shopId: m.shopId, shopRole: m.role, shopProblem: null });
  const named = requested?.trim();
  if (named === undefined || named === '') {
    if (actor.memberships.length === 1) return acting(actor.memberships[0]);
    return none(actor.memberships.length === 0 ? null : 'SHOP_NOT_CHOSEN');
  }
  if (!/^[1-9][0-9]{0,9}$/.test(named)) return none('SHOP_ID_INVALID');
  const membership = actor.memberships.find((m) => m.shopId === Number(named));
  return membership ? acting(membership) : none('NOT_A_MEMBER');
}
