import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { EventBus } from '../shared/domain-event.js';
import type { FaultHooks, ServiceContext } from '../shared/context.js';
import { authenticate } from '../services/accounts/auth.service.js';
import { runReading } from '../db/request-scope.js';
import type { AuthThrottle, ClientAddress } from '../shared/auth-throttle.js';

export interface AppDeps {
  config: AppConfig;
  orm: MikroORM;
  log: Logger;
  events: EventBus;
  /** Test hooks only (see FaultHooks). */
  faults?: FaultHooks;
  /** Set by `startApp` for the requests it serves. */
  authThrottle?: AuthThrottle;
}

/**
 * What the request pipeline keeps on `res.locals` (Express types them `any`): the request id from
 * the first middleware on, the service context on REST routes.
 */
export interface RequestLocals {
  requestId: string;
  ctx?: ServiceContext;
}

export const requestLocals = (res: Response) => res.locals as RequestLocals;

export function bearerToken(header: string | undefined | null): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/** A request id a client may send (`X-Request-Id`) to have it echoed; a UUID fits too. */
export const REQUEST_ID_PATTERN = /^[\w.-]{1,100}$/;

export function requestId(header: unknown): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
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
    faults: deps.faults,
    client,
    authThrottle: deps.authThrottle,
  };
}
