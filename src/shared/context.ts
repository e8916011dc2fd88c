import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import type { AppConfig } from '../config.js';
import type { DomainEvent, EventBus } from './domain-event.js';
import type { Role } from '../entities/user.entity.js';
import type { AuthThrottle, ClientAddress } from './auth-throttle.js';

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
  /** Set inside a transaction: events wait here until commit. */
  pendingEvents?: DomainEvent[];
  /** Test hooks where a database fault hurts most; never set in production. */
  faults?: FaultHooks;
  /** The caller's address (Express `req.ip`: behind a proxy only as TRUST_PROXY allows). */
  client?: ClientAddress;
  /** Sign-in throttling of the server; absent where no client is calling (service tests, sweeps). */
  authThrottle?: AuthThrottle;
}

/**
 * Where the fault tests break the database (kill the session, drop the answer). Use cases call them
 * at the named points; they are absent outside tests.
 */
export interface FaultHooks {
  /**
   * The use case's writes are done and its Idempotency-Key recorded: inside its transaction before
   * COMMIT, or just after its one write statement committed on its own.
   */
  afterWrite?(tx: ServiceContext, useCase: string): Promise<void>;
}
