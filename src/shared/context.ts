import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import type { AppConfig } from '../config.js';
import type { EventBus, PendingEvents } from './domain-event.js';
import type { PlatformRole, Role } from '../entities/user.entity.js';
import type { ShopRole } from '../entities/shop-membership.entity.js';
import type { AuthThrottle, ClientAddress } from './auth-throttle.js';
import type { PendingAudit } from './audit-actor.js';

/** One of a user's places in a shop's staff. */
export interface Membership {
  shopId: number;
  role: ShopRole;
}

/**
 * Who is calling. Resolved once per request from the bearer token and the shop the request names
 * (`X-Shop-Id`, see shared/acting-shop.ts), so a role changed or a membership removed counts from
 * the next request on, with the same token. What the actor may do: shared/permissions.ts.
 */
export interface Actor {
  userId: number;
  /** The kind of account (customer, shop operator, platform staff). */
  role: Role;
  /** The shop this request acts for: one of `memberships`; null when none is chosen. */
  shopId: number | null;
  /** The actor's role in `shopId` (null with it): the role to record for a shop write. */
  shopRole: ShopRole | null;
  /** Platform staff's role; null for every other account. */
  platformRole: PlatformRole | null;
  /** Every shop the user belongs to, by shop id. */
  memberships: readonly Membership[];
  /** Why no shop is chosen although the user has memberships (the guard says so to a shop operation). */
  shopProblem: 'SHOP_NOT_CHOSEN' | 'NOT_A_MEMBER' | 'SHOP_ID_INVALID' | null;
  /** Hash of the token used, so logout can revoke exactly it. */
  tokenHash: string;
}

/**
 * Everything a service method needs about the current call: its own entity manager fork, the actor,
 * configuration, logging and where to publish events. Passed first to every service method.
 */
export interface ServiceContext {
  em: EntityManager;
  actor: Actor | null;
  /** Why a sent token was not accepted (so a route that needs a user can say so). */
  authProblem: 'TOKEN_INVALID' | 'TOKEN_EXPIRED' | null;
  config: AppConfig;
  log: Logger;
  requestId: string;
  /** Where committed events are published, and where subscriptions listen. */
  events: EventBus;
  /** Set inside a use case: its events wait here until stored in the outbox, just before commit. */
  pendingEvents?: PendingEvents;
  /**
   * The operation the door runs, by one name for both doors (its GraphQL field: REST routes name
   * theirs in src/rest/operation-names.ts): what the audit log records a write as.
   */
  operation?: string;
  /** Set inside an audited caller's use case: the rows it changed, stored just before commit (shared/audit.ts). */
  pendingAudit?: PendingAudit;
  /** The parts of the service layer chosen at start-up (see ServiceWiring). */
  wiring: ServiceWiring;
  /** The caller's address (Express `req.ip`: behind a proxy only as TRUST_PROXY allows). */
  client?: ClientAddress;
  /** Sign-in throttling of the server; absent where no client is calling (service tests, sweeps). */
  authThrottle?: AuthThrottle;
}

/**
 * Parts of the service layer chosen once at start-up and shared by every context of the process:
 * checkout's order writer (CHECKOUT_WRITER), the hooks of order transitions. Each part is declared
 * by the service that owns it, from its own module, by interface merging (`declare module
 * '.../shared/context.js'`, as Vendure declares its order states), so this layer names no service;
 * `src/services/wiring.ts` builds the whole, and a test may build it with a part of its own.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by interface merging, see above
export interface ServiceWiring {}
