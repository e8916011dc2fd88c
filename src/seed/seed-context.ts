import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { InProcessEventBus } from '../services/events/in-process-bus.js';
import type { ServiceContext } from '../shared/context.js';
import { Role, PlatformRole } from '../entities/user.entity.js';
import type { ShopRole } from '../entities/shop-membership.entity.js';
import { serviceWiring } from '../services/wiring.js';

/** Who the seed acts as when it calls a service: a demo account. */
export interface SeedActor {
  id: number;
  role: Role;
  /** A shop operator's shop and role there (the seed's members belong to one shop each). */
  shop?: { id: number } | null;
  shopRole?: ShopRole | null;
}

/**
 * Service contexts for the demo seed's own transaction. The seed calls the real use cases (so
 * stock, ledgers, sold counts and states follow the same rules as a client's calls), and each of
 * them joins the seed's transaction: `pendingEvents` being set is what makes `inTransaction` join
 * instead of opening its own. So the advisory lock covers everything, and a failure anywhere leaves
 * no half-seeded database (checkout's writers, too, write inside a transaction they find).
 *
 * The events the use cases emit are collected and dropped: they tell the demo's made-up past, not
 * news for a subscriber.
 */
export function seedContexts(em: EntityManager, nodeEnv: string) {
  const config = loadConfig({ NODE_ENV: nodeEnv, LOG_LEVEL: 'silent' });
  const base = {
    em,
    authProblem: null,
    config,
    log: createLogger(config),
    requestId: 'demo-seed',
    events: new InProcessEventBus(),
    pendingEvents: { events: [], storedByStatements: 0, autocommit: false },
    wiring: serviceWiring(config),
  };
  return (actor: SeedActor): ServiceContext => ({
    ...base,
    actor: {
      userId: actor.id,
      role: actor.role,
      shopId: actor.shop?.id ?? null,
      shopRole: actor.shopRole ?? null,
      platformRole: actor.role === Role.PlatformAdmin ? PlatformRole.Admin : null,
      memberships: actor.shop && actor.shopRole ? [{ shopId: actor.shop.id, role: actor.shopRole }] : [],
      shopProblem: null,
      tokenHash: '',
    },
  });
}
