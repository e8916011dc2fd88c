import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { EventBus } from '../shared/domain-event.js';
import type { ServiceContext, ServiceWiring } from '../shared/context.js';
import { authenticate } from '../services/accounts/auth.service.js';
import { runReading } from '../db/request-scope.js';
import type { ReadRouting } from '../db/read-routing.js';
import type { Actor } from '../shared/context.js';
import { Role } from '../entities/user.entity.js';
import type { AuthThrottle, ClientAddress } from '../shared/auth-throttle.js';
import { withRoutedReads } from '../shared/replica-reads.js';

export interface AppDeps {
  config: AppConfig;
  orm: MikroORM;
  log: Logger;
  events: EventBus;
  /** The service layer's parts chosen at start-up (`serviceWiring(config)`). */
  wiring: ServiceWiring;
  /** Set by `startApp` for the requests it serves. */
  authThrottle?: AuthThrottle;
  /** Read replicas for the storefront's reads (src/db/read-routing.ts); absent: the primary only. */
  reads?: ReadRouting;
}

export function bearerToken(header: string | undefined | null): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/** One service context per request (REST call, GraphQL operation or websocket operation). */
export async function createServiceContext(
  deps: AppDeps,
  token: string | undefined,
  id: string,
  client?: ClientAddress,
  door: 'http' | 'websocket' = 'http',
  traceId?: string,
  spanId?: string,
  /** The `X-Shop-Id` header: the shop the request acts for (shared/acting-shop.ts). */
  shopHeader?: string,
): Promise<ServiceContext> {
  const em = deps.orm.em.fork();
  // A token lookup never waits for a row lock: it needs no write slot, whatever the request does next.
  const { actor, problem, lastWriteAt } = await runReading(() => authenticate(em, token, shopHeader));
  const reads = deps.reads;
  const ctx: Omit<ServiceContext, 'em'> = {
    actor,
    authProblem: problem,
    config: deps.config,
    // Every line the request logs (its errors included) carries the ids the client got back.
    // With tracing on, the span id too (the request's HTTP span).
    log: deps.log.child(traceId === undefined ? { requestId: id } : spanId === undefined ? { requestId: id, traceId } : { requestId: id, traceId, spanId }),
    requestId: id,
    events: deps.events,
    wiring: deps.wiring,
    client,
    authThrottle: deps.authThrottle,
  };
  if (!reads || door === 'websocket' || !mayReadFromReplica(actor, lastWriteAt ?? null, deps.config.readYourWritesMs)) return { ...ctx, em };
  return withRoutedReads(ctx, em, reads);
}

/**
 * Anonymous callers, and customers whose last write is older than READ_YOUR_WRITES_MS (longer than
 * any lag a replica is used with, so their write is on it). Shop operators and platform admins act
 * on what they just saw: always the primary.
 */
function mayReadFromReplica(actor: Actor | null, lastWriteAt: Date | null, windowMs: number): boolean {
  if (!actor) return true;
  if (actor.role !== Role.Customer) return false;
  return lastWriteAt === null || Date.now() - lastWriteAt.getTime() >= windowMs;
}
