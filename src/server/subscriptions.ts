import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { GraphQLError, Kind, OperationTypeNode, execute, type GraphQLSchema } from 'graphql';
import { AppError, toAppError } from '../errors.js';
import { authenticate, invalidTokens } from '../services/accounts/auth.service.js';
import type WebSocket from 'ws';
import { asGraphQLError, formatError } from '../graphql/errors.js';
import { checkOperation } from '../graphql/limits.js';
import { unsafeOperationText } from '../graphql/operation-text.js';
import { createLoaders } from '../graphql/loaders.js';
import type { GraphQLContext } from '../resolvers/graphql-context.js';
import { bearerToken, createServiceContext, type AppDeps } from './request-context.js';
import { clientAddressOf, clientOf, type TrustProxyFn } from './client-address.js';
import { markWriting, requestScope, runInScope } from '../db/request-scope.js';
import { addressKey } from '../shared/auth-throttle.js';
import { SocketLimits, WS_TOO_MANY_CONNECTIONS } from './socket-limits.js';

/** Close codes of a refused connection (graphql-ws's own 4401), the reason being our error code. */
export const WS_UNAUTHORIZED = 4401;

/** The bearer token of a websocket: `connectionParams.authorization` ("Bearer <t>"), `.token`, or the upgrade header. */
export function connectionToken(params: Record<string, unknown> | undefined, header: string | undefined): string | undefined {
  const authorization = params?.authorization ?? params?.Authorization;
  if (typeof authorization === 'string') return bearerToken(authorization) ?? (authorization.trim() || undefined);
  if (typeof params?.token === 'string' && params.token) return params.token;
  return bearerToken(header);
}

export interface SubscriptionServer {
  /** Closes every websocket (1001 Going away), ending their subscriptions, and stops accepting new ones. */
  dispose(): Promise<void>;
}

/**
 * graphql-ws on the same `/graphql` path as HTTP GraphQL. A connection must present a valid
 * token in `connection_init` (else it is closed with 4401 and the error code as reason); each
 * operation gets its own service context with the token checked again, and the same limits,
 * error codes and introspection setting as over HTTP.
 */
export function startSubscriptionServer(deps: AppDeps, server: http.Server, schema: GraphQLSchema, trust: TrustProxyFn): SubscriptionServer {
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: deps.config.bodyLimitBytes });
  const format = formatError(deps.log);
  // A failure of the event stream itself arrives wrapped without a path: format the AppError inside.
  // Errors graphql-js raises before execution without a code (bad variables) get Apollo's BAD_USER_INPUT.
  const formatAll = (errors: readonly GraphQLError[]) =>
    errors.map((e) => {
      if (!e.path && e.originalError instanceof AppError) return format(e.toJSON(), e.originalError);
      if (!e.path && e.extensions?.code === undefined && (!e.originalError || e.originalError instanceof GraphQLError)) {
        return { ...e.toJSON(), extensions: { code: 'BAD_USER_INPUT', status: 400 } };
      }
      return format(e.toJSON(), e);
    });

  // Every open connection and its token: checked again every `subscriptionRecheckSeconds` (one query
  // for all), so a connection whose token was revoked (logout, in any process) or has expired is
  // closed with 4401 TOKEN_INVALID / TOKEN_EXPIRED instead of receiving events until it disconnects.
  const open = new Map<WebSocket, string>();
  const recheck = setInterval(() => void closeRevoked(deps, open), deps.config.subscriptionRecheckSeconds * 1000);
  recheck.unref();

  // A query or mutation over the socket, and each check of its token, gets a request's database
  // deadline, as over HTTP. A subscription gets none: its events are resolved long after it began.
  const withDeadline = <T>(work: () => T): T => runInScope(requestScope(deps.config.dbAcquireTimeoutMs), work);

  // Registered before graphql-ws's own listener: a socket over its address's limit is refused first.
  const limits = new SocketLimits({ perUser: deps.config.maxSocketsPerUser, anonymousPerAddress: deps.config.maxAnonymousSocketsPerAddress });
  wss.on('connection', (socket, request) => {
    if (!limits.opened(socket, addressKey(clientAddressOf(request, trust)))) socket.close(WS_TOO_MANY_CONNECTIONS, 'TOO_MANY_CONNECTIONS');
  });

  const disposable = useServer<Record<string, unknown>, { token: string }>(
    {
      schema,
      isProd: deps.config.nodeEnv === 'production',
      execute: (args) =>
        withDeadline(() => {
          markWriting(args.document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === OperationTypeNode.MUTATION));
          return execute(args);
        }),
      onConnect: async (ctx) => {
        const token = connectionToken(ctx.connectionParams, ctx.extra.request.headers.authorization);
        let authentication;
        try {
          authentication = await withDeadline(() => authenticate(deps.orm.em.fork(), token));
        } catch (error) {
          // Database down: 1013 "try again later" (graphql-ws clients retry it); anything else 1011.
          const { appError } = toAppError(error);
          deps.log.error({ err: error }, 'websocket authentication failed');
          ctx.extra.socket.close(appError.status === 503 ? 1013 : 1011, appError.code);
          return false;
        }
        const { actor, problem } = authentication;
        if (!actor) {
          ctx.extra.socket.close(WS_UNAUTHORIZED, problem ?? 'UNAUTHENTICATED');
          return false;
        }
        const socket = ctx.extra.socket;
        if (!limits.signedIn(socket, actor.userId)) {
          socket.close(WS_TOO_MANY_CONNECTIONS, 'TOO_MANY_CONNECTIONS');
          return false;
        }
        ctx.extra.token = token;
        open.set(socket, actor.tokenHash);
        socket.once('close', () => open.delete(socket));
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        // graphql-ws has already registered this operation, so the count includes it.
        if (Object.keys(ctx.subscriptions).length > deps.config.maxSubscriptionsPerSocket) {
          const limit = deps.config.maxSubscriptionsPerSocket;
          return [asGraphQLError(new AppError('TOO_MANY_SUBSCRIPTIONS', 429, `At most ${limit} operations may run at once on one connection`, { limit }))];
        }
        const checked = checkOperation(schema, payload.query, deps.config);
        if (checked.errors) return checked.errors;
        const unsafe = unsafeOperationText(checked.document, payload.variables ?? undefined);
        if (unsafe) return [unsafe];
        let contextValue: GraphQLContext;
        try {
          const { request } = ctx.extra;
          const serviceContext = await withDeadline(() =>
            createServiceContext(deps, ctx.extra.token, `ws-${randomUUID()}`, clientOf(request, clientAddressOf(request, trust)), 'websocket', undefined, undefined, shopOf(request.headers['x-shop-id'], ctx.connectionParams)),
          );
          contextValue = { ctx: serviceContext, loaders: createLoaders(serviceContext) };
        } catch (error) {
          return [asGraphQLError(error)];
        }
        return {
          schema,
          document: checked.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: formatAll(result.errors) } : undefined,
      onError: (_ctx, _id, _payload, errors) => formatAll(errors),
    },
    wss,
  );
  return {
    async dispose() {
      clearInterval(recheck);
      // graphql-ws sends 1001 to every client and waits for them all; a client that does not answer
      // the close handshake within a second is cut, so shutdown never waits on a peer.
      const disposing = Promise.resolve(disposable.dispose());
      const grace = setTimeout(() => {
        for (const socket of wss.clients) socket.terminate();
      }, 1000);
      try {
        await disposing;
      } finally {
        clearTimeout(grace);
      }
    },
  };
}

/** Closes the connections whose token is no longer valid; a database error leaves them for the next round. */
async function closeRevoked(deps: AppDeps, open: Map<WebSocket, string>): Promise<void> {
  if (open.size === 0) return;
  let invalid: Map<string, string>;
  try {
    invalid = await invalidTokens(deps.orm.em.fork(), [...new Set(open.values())]);
  } catch (error) {
    deps.log.warn({ err: error }, 'websocket token check failed; it runs again next interval');
    return;
  }
  for (const [socket, tokenHash] of open) {
    const problem = invalid.get(tokenHash);
    if (!problem) continue;
    open.delete(socket);
    socket.close(WS_UNAUTHORIZED, problem);
  }
}

/**
 * The shop a socket acts for: the upgrade request's `X-Shop-Id`, else `shopId` in the connection
 * parameters (a browser cannot set a header on a websocket). Checked like the header: a shop the
 * caller does not belong to, or no id, acts for no shop.
 */
function shopOf(header: string | string[] | undefined, params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const named = Array.isArray(header) ? header[0] : header;
  if (named !== undefined) return named;
  const param = params?.shopId;
  return typeof param === 'number' || typeof param === 'string' ? String(param) : undefined;
}
