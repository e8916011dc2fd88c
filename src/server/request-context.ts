import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { EventBus } from '../shared/domain-event.js';
import type { ServiceContext, ServiceWiring } from '../shared/context.js';
import { authenticate } from '../services/accounts/auth.service.js';
import { runReading } from '../db/request-scope.js';
import type { AuthThrottle, ClientAddress } from '../shared/auth-throttle.js';

export interface AppDeps {
  config: AppConfig;
  orm: MikroORM;
  log: Logger;
  events: EventBus;
  /** The service layer's parts chosen at start-up (`serviceWiring(config)`). */
  wiring: ServiceWiring;
  /** Set by `startApp` for the requests it serves. */
  authThrottle?: AuthThrottle;
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
): Promise<ServiceContext> {
  const em = deps.orm.em.fork();
  // A token lookup never waits for a row lock: it needs no write slot, whatever the request does next.
  const { actor, problem } = await runReading(() => authenticate(em, token));
  return {
    em,
    actor,
    authProblem: problem,
    config: deps.config,
    log: deps.log.child({ requestId: id }),
    requestId: id,
    events: deps.events,
    wiring: deps.wiring,
    client,
    authThrottle: deps.authThrottle,
  };
}
