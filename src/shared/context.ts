import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import type { AppConfig } from '../config.js';
import type { EventBus, PendingEvents } from './domain-event.js';
import type { Role } from '../entities/user.entity.js';
import type { AuthThrottle, ClientAddress } from './auth-throttle.js';
import type { PendingAudit } from './audit-actor.js';

/** Who is calling. Resolved once per request from the bearer token. */
export interface Actor {
  userId: number;
  role: Role;
  /** The shop a shop operator acts for; null for other roles. */
  shopId: number | null;
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
