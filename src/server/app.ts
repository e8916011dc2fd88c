import http from 'node:http';
import pg from 'pg';
import express, { type Request, type Response, type NextFunction } from 'express';
import { ApolloServer, type ApolloServerPlugin, type GraphQLRequestListener } from '@apollo/server';
import { GraphQLError, OperationTypeNode } from 'graphql';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { AppError, errorBody } from '../errors.js';
import { apiRouter } from '../rest/api.js';
import { errorHandler, routeNotFound } from '../rest/errors.js';
import { graphqlSchema } from '../resolvers/schema.js';
import { asGraphQLError, formatError } from '../graphql/errors.js';
import { onlyLimitErrors, operationRules } from '../graphql/limits.js';
import { unsafeOperationText } from '../graphql/operation-text.js';
import type { GraphQLContext } from '../resolvers/graphql-context.js';
import { createLoaders } from '../graphql/loaders.js';
import { bearerToken, createServiceContext, type AppDeps } from './request-context.js';
import { requestId, traceIdOf } from '../shared/request-id.js';
import { tracing } from '../tracing.js';
import { requestLocals } from '../rest/request-locals.js';
import { startSubscriptionServer } from './subscriptions.js';
import { startSweeps, startWebhookDispatcher } from './jobs.js';
import { SandboxProvider } from '../services/payments/sandbox-provider.js';
import { PoolHealth } from '../db/pool-health.js';
import { markWriting, requestScope, runInScope } from '../db/request-scope.js';
import { poolOf } from '../db/prepared-statements.js';
import { demoImages } from './demo-images.js';
import { webApp } from './web-app.js';
import { apiDocs } from './api-docs.js';
import { postgresAuthThrottle, type AuthThrottle } from '../shared/auth-throttle.js';
import { clientOf, type TrustProxyFn } from './client-address.js';
import { answerClientErrors } from './client-errors.js';
import { securityHeaders } from './security-headers.js';
import { compressJson } from './json-compression.js';
import { graphiqlPage } from './graphiql.js';
import { corsPolicy } from './cors.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../shared/json-depth.js';
import { operationExecution } from '../graphql/operation-executor.js';
import { traceRootFields } from '../graphql/traced-fields.js';
import { primaryRetryOf } from '../shared/replica-reads.js';
import { graphqlHttp } from './graphql-http.js';
import { cacheSizes } from '../services/catalog/cache-sizes.js';
import { loadSalesTally, salesTallyAge } from '../services/catalog/sales-tally.js';
import { HOME_CONTENT_CHANNEL } from '../services/catalog/home-content.service.js';
import { ChangeListener, registerChangeListener } from '../db/change-listener.js';
import { SHOP_HEADER } from '../shared/acting-shop.js';
import { API_MOUNT } from '../rest/route.js';
import { FILE_BODY_PATHS } from '../rest/media.routes.js';
import { graphqlUploads } from './graphql-uploads.js';
import { mediaFiles } from './media-files.js';
import { measureProcess, watchBacklog, watchCaches, watchPool, watchReadiness, watchSalesTally } from '../metrics.js';
import { readBacklog } from '../services/events/outbox.repository.js';
import { metricsEndpoint, observeGraphql, observeHttp, operationLabel } from './metrics-endpoint.js';

/** How long stopping waits for requests in flight before closing what is left. */
const STOP_GRACE_MS = 10_000;

/** Counts requests from arrival until their response is done or their connection is gone. */
class InFlight {
  stopping = false;
  private count = 0;
  private waiters: (() => void)[] = [];

  enter(res: Response) {
    this.count++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    };
    res.once('finish', leave);
    res.once('close', leave);
  }

  drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export interface RunningApp {
  server: http.Server;
  /** The port actually bound (useful with port 0 in tests). */
  port: number;
  /** The sign-in throttle of this server process. */
  authThrottle: AuthThrottle;
  /**
   * Close the websockets (ending their subscriptions), stop taking requests, let those in flight
   * finish, then stop GraphQL. The ORM and the event bus are the caller's.
   */
  stop(): Promise<void>;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Our rules of an HTTP operation, as one Apollo plugin whose hooks are shared by every request (no
 * per-request listener: each plugin's listener is called at every hook of every request):
 * - a subscription sent over HTTP would run its resolver without an event: refused, pointing to the
 *   websocket;
 * - a mutation is writing work for the database layer (write slots, request-scope.ts); a query is not;
 * - NUL or a lone surrogate in the variables or inline arguments: VALIDATION_FAILED before it runs
 *   (`unsafeOperationText`);
 * - an operation over a limit is answered with that limit alone (`onlyLimitErrors`).
 */
const operationRulesOfRequest: GraphQLRequestListener<GraphQLContext> = {
  didResolveOperation({ operation, document, request, contextValue }) {
    if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
      return Promise.reject(
        new GraphQLError('Subscriptions are served over a websocket (graphql-ws) at /graphql, not over HTTP', {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        }),
      );
    }
    markWriting(operation?.operation === OperationTypeNode.MUTATION);
    const locals = (contextValue as Partial<GraphQLContext>).httpLocals;
    if (locals) {
      locals.graphqlOperation = operationLabel(operation?.name?.value);
      locals.graphqlType = operation?.operation ?? 'unknown';
    }
    const unsafe = unsafeOperationText(document, request.variables);
    return unsafe ? Promise.reject(unsafe) : Promise.resolve();
  },
  willSendResponse({ response }) {
    if (response.body.kind === 'single' && response.body.singleResult.errors) {
      response.body.singleResult.errors = onlyLimitErrors(response.body.singleResult.errors);
    }
    return Promise.resolve();
  },
};
const operationRulesOfHttp: ApolloServerPlugin<GraphQLContext> = { requestDidStart: () => Promise.resolve(operationRulesOfRequest) };

/**
 * The GraphQL twin of the REST route's retry (src/rest/route.ts): an operation that read from a
 * replica which lost the connection under it runs once more, on the primary, with fresh loaders
 * (those of the first run hold the failed loads).
 */
function onPrimaryAfterReplicaLoss(context: object, errors: readonly GraphQLError[]): GraphQLContext | null {
  const { ctx } = context as GraphQLContext;
  for (const error of errors) {
    const onPrimary = primaryRetryOf(ctx, error.originalError);
    if (onPrimary) return { ctx: onPrimary, loaders: createLoaders(onPrimary) };
  }
  return null;
}

/**
 * The sign-in counts' own connection on the ORM's database: one exchange every half second, which
 * never waits for a connection the use cases hold, and never holds one of theirs.
 */
function authThrottlePool(deps: AppDeps): pg.Pool {
  const pool = new pg.Pool({
    connectionString: deps.orm.config.get('clientUrl'),
    max: 1,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    query_timeout: 5000,
  });
  pool.on('error', (error) => deps.log.warn({ err: error }, 'sign-in throttle connection failed'));
  // pg-pool leaves a connection's errors to whoever holds it; the exchange sees them as its query failing.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * The metrics label of a request no REST route took (those label themselves with their template,
 * route.ts): the few fixed paths by name, everything else by what it is, never by its path.
 */
function fallbackRoute(req: Request, status: number): string {
  // originalUrl: a router mounted on a path (GraphQL's, the docs') strips it from req.url while it runs.
  const url = req.originalUrl;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path === '/graphql' || path === '/healthz' || path === '/readyz' || path === '/metrics') return path;
  if (status === 404) return 'unmatched';
  return path.startsWith('/api/') ? '/api/other' : 'web';
}

/**
 * Builds the HTTP server with its three doors: REST under /api, GraphQL over HTTP at /graphql, and
 * GraphQL subscriptions over a websocket (graphql-ws) on the same /graphql path.
 */
export async function startApp(baseDeps: AppDeps, port: number): Promise<RunningApp> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // `req.ip`, under which sign-in attempts are counted, reads X-Forwarded-For only as far as this allows.
  app.set('trust proxy', baseDeps.config.trustProxy);
  const trust = app.get('trust proxy fn') as TrustProxyFn;
  const throttleStore = authThrottlePool(baseDeps);
  const authThrottle = postgresAuthThrottle(throttleStore, baseDeps.config, baseDeps.log.child({ component: 'auth-throttle' }));
  const deps: AppDeps = { ...baseDeps, authThrottle };
  const server = http.createServer(app);
  answerClientErrors(server);
  const bodyParser = express.json({
    limit: deps.config.bodyLimitBytes,
    type: ['application/json', 'application/*+json'],
    // Runs on the raw (inflated) bytes before JSON.parse: too deep a body is refused unparsed.
    verify: (_req, res, raw) => {
      if (jsonNestsDeeperThan(raw, MAX_JSON_DEPTH)) {
        throw new AppError('JSON_TOO_DEEP', 400, `The JSON body nests more than ${MAX_JSON_DEPTH} levels deep`, { max_depth: MAX_JSON_DEPTH });
      }
      requestLocals(res as Response).rawBody = raw;
    },
  });

  // Alipay notifies with a signed form post: its bytes are kept as a JSON body's are, for the signature
  // check, and nothing is parsed (no route takes a form body; others see none, as before).
  const notificationForm = express.raw({
    limit: deps.config.bodyLimitBytes,
    type: 'application/x-www-form-urlencoded',
    verify: (_req, res, raw) => {
      requestLocals(res as Response).rawBody = raw;
    },
  });

  // An upload's body is the file itself, kept as bytes (up to MEDIA_MAX_BYTES) for the media routes only.
  const fileBody = express.raw({
    limit: deps.config.media.maxBytes,
    type: () => true,
    verify: (_req, res, raw) => {
      requestLocals(res as Response).fileBody = raw;
    },
  });

  // Requests in flight, so that stopping can let them finish before the pool closes.
  const inFlight = new InFlight();

  // Request id, one structured log line per request (at level info) and the request metrics (unless
  // METRICS=off). In production at warn with metrics off, the per-request listener and its timing are
  // not even set up.
  const logRequests = deps.log.isLevelEnabled('info');
  const measure = deps.config.metrics.exposure !== 'off';
  if (measure) measureProcess();
  app.use((req: Request, res: Response, next: NextFunction) => {
    inFlight.enter(res);
    // While stopping, a request that came on an open keep-alive connection is served, and the
    // connection then closes so the server can finish closing.
    if (inFlight.stopping) res.set('Connection', 'close');
    const id = requestId(req.header('x-request-id'));
    const locals = requestLocals(res);
    locals.requestId = id;
    res.set('X-Request-Id', id);
    // With tracing on, the trace id is the request's OpenTelemetry trace (one id, not two); off, no span exists.
    const ids = tracing?.activeIds();
    const traceId = ids?.traceId ?? traceIdOf(req.headers.traceparent, id);
    const spanId = ids?.spanId;
    locals.traceId = traceId;
    if (ids) locals.spanId = spanId;
    res.set('X-Trace-Id', traceId);
    if (logRequests || measure) {
      const started = performance.now();
      res.on('finish', () => {
        const durationMs = performance.now() - started;
        if (measure) {
          observeHttp(req.method, locals.route ?? fallbackRoute(req, res.statusCode), res.statusCode, durationMs / 1000);
          if (locals.graphqlOperation !== undefined) observeGraphql(locals.graphqlOperation, locals.graphqlType ?? 'unknown', res.statusCode, durationMs / 1000);
        }
        if (logRequests) deps.log.info({ requestId: id, traceId, spanId, method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, durationMs }, 'request');
      });
    }
    // From here on, everything this request waits for from the database shares one deadline. REST
    // calls other than reads are writing work; GraphQL says once its operation is known.
    runInScope(requestScope(deps.config.dbAcquireTimeoutMs, !READS.has(req.method) && !req.path.startsWith('/graphql'), traceId), next);
  });
  app.use(securityHeaders);
  if (deps.config.corsOrigins.length > 0) app.use(['/api', '/graphql'], corsPolicy(deps.config.corsOrigins));
  // JSON answers of both doors, compressed as the client accepts (the websocket on /graphql is not Express's).
  app.use(['/api', '/graphql'], compressJson(deps.config.jsonCompressionMinBytes));

  const servingPool = await poolOf(deps.orm.em.fork());
  const unwatchPool = watchPool(servingPool);
  const unwatchBacklog = watchBacklog(() => readBacklog(servingPool));
  const unwatchSalesTally = watchSalesTally(() => salesTallyAge(deps.orm.em));
  const unwatchCaches = watchCaches(() => cacheSizes(deps.orm.em));
  app.get('/metrics', metricsEndpoint(deps.config.metrics));
  const health = new PoolHealth(servingPool, {
    clientUrl: deps.orm.config.get('clientUrl'),
    stuckAfterMs: deps.config.dbStuckAfterMs,
  });
  const unwatchReadiness = watchReadiness(() => health.ready());
  app.get('/healthz', async (_req, res) => {
    if (await health.live()) res.json({ status: 'ok' });
    else res.status(503).json(errorBody(new AppError('DATABASE_POOL_STUCK', 503, 'The connection pool gives no connection while the database answers; restart this process')));
  });
  app.get('/readyz', async (_req, res) => {
    if (await health.ready()) res.json({ status: 'ok', database: 'reachable' });
    else res.status(503).json(errorBody(new AppError('SERVICE_UNAVAILABLE', 503, 'The database is not reachable', { retry_after_seconds: 1 })));
  });

  const schema = await graphqlSchema();
  if (tracing) traceRootFields(schema);
  const apollo = new ApolloServer<GraphQLContext>({
    ...operationExecution(schema, deps.config.graphqlExecutor, { compileAfter: deps.config.graphqlCompileAfter, rerunWith: onPrimaryAfterReplicaLoss }),
    // Introspection is refused by our own rule (operationRules) when GRAPHQL_INTROSPECTION is off:
    // Apollo's refusal names Apollo and tells how to turn it on.
    introspection: true,
    // Limits (docs/api.md "GraphQL limits"): tokens while parsing, the rest as validation rules.
    parseOptions: { maxTokens: deps.config.graphqlLimits.maxTokens },
    validationRules: operationRules(deps.config),
    // No "Did you mean ...?" in validation errors: they would reveal the schema with introspection off.
    hideSchemaDetailsFromClientErrors: true,
    // start.ts owns shutdown: drain HTTP, then close the pool, then stop the embedded database.
    stopOnTerminationSignals: false,
    // Apollo's default shows stack traces (absolute paths) unless NODE_ENV is production or test:
    // never in an answer; unexpected errors are logged with their request id (formatError).
    includeStacktraceInErrorResponses: false,
    formatError: formatError(deps.log),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      operationRulesOfHttp,
      // No cache hints are used, and the default cache-control plugin wraps every field resolver to collect them.
      ApolloServerPluginCacheControlDisabled(),
      // Apollo's landing page loads Sandbox from Apollo's CDN: never served; GraphiQL is ours (graphiql.ts).
      ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await apollo.start();
  const subscriptions = startSubscriptionServer(deps, server, schema, trust);

  const graphiql = deps.config.graphiql ? graphiqlPage(deps.log) : null;
  if (graphiql) app.get('/graphql', graphiql);
  app.use(
    '/graphql',
    graphqlUploads({ fileBytes: deps.config.media.maxBytes, jsonBytes: deps.config.bodyLimitBytes }),
    bodyParser,
    graphqlHttp(apollo, async ({ req, res }) => {
      try {
        const ctx = await createServiceContext(deps, bearerToken(req.header('authorization')), requestLocals(res).requestId, clientOf(req, req.ip), 'http', requestLocals(res).traceId, requestLocals(res).spanId, req.header(SHOP_HEADER));
        return { ctx, loaders: createLoaders(ctx), httpLocals: requestLocals(res) };
      } catch (error) {
        throw asGraphQLError(error);
      }
    }),
  );

  // The OpenAPI document and its reference page (no session, no database).
  app.use(apiDocs());
  app.use(
    API_MOUNT,
    // The caller first, then the body: a route checks who calls before it answers that the body was
    // unreadable (route.ts), so the body parser's refusal is kept for it rather than answered here.
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        requestLocals(res).ctx = await createServiceContext(deps, bearerToken(req.header('authorization')), requestLocals(res).requestId, clientOf(req, req.ip), 'http', requestLocals(res).traceId, requestLocals(res).spanId, req.header(SHOP_HEADER));
        next();
      } catch (error) {
        next(error);
      }
    },
    (req: Request, res: Response, next: NextFunction) => {
      bodyParser(req, res, (error?: unknown) => {
        if (error !== undefined && error !== null) requestLocals(res).bodyError = error;
        // Read only for a signed-in caller: anyone else is refused before the body matters (route.ts).
        if (req.method === 'POST' && req.body === undefined && FILE_BODY_PATHS.has(req.path) && requestLocals(res).ctx?.actor) {
          return fileBody(req, res, (fileError?: unknown) => {
            if (fileError !== undefined && fileError !== null) requestLocals(res).bodyError = fileError;
            req.body = undefined;
            next();
          });
        }
        // Only a form post to a notification route is read as one (the header first: it costs nothing on every other request).
        if (!req.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded') || !req.path.startsWith('/payments/notifications/')) return next();
        notificationForm(req, res, (formError?: unknown) => {
          if (formError !== undefined && formError !== null) requestLocals(res).bodyError = formError;
          if (Buffer.isBuffer(req.body)) req.body = undefined;
          next();
        });
      });
    },
    apiRouter(),
  );
  // The storefront web app at `/` (after the API doors, which keep their own answers).
  app.use(demoImages());
  app.use(mediaFiles(deps.wiring.mediaStore));
  const web = webApp(deps.log, undefined, { stripe: deps.config.payments.methods.includes('stripe') });
  if (web) app.use(web);
  app.use(routeNotFound);
  app.use(errorHandler(deps.log));

  // The storefront's home content is kept by the process until a change is heard (issue 43). LISTEN
  // needs a session of its own: behind a transaction pooler, the direct one (DATABASE_LISTEN_URL).
  const listenUrl = deps.config.databaseListenUrl ?? deps.orm.config.get('clientUrl');
  if (!listenUrl) throw new Error('no database URL to LISTEN on: the ORM was opened without clientUrl');
  const homeContentChanges = new ChangeListener(listenUrl, HOME_CONTENT_CHANNEL, deps.log.child({ component: 'home-content' }));
  registerChangeListener(deps.orm.em, homeContentChanges);
  await homeContentChanges.start();
  // A ranking by sales takes every candidate's sold_count from the sales tally: read it before serving,
  // so a process's first rankings do not sum sold lines (src/services/catalog/sales-tally.ts).
  await loadSalesTally(deps.orm.em);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  const stopSweeps = startSweeps(deps);
  const stopWebhooks = startWebhookDispatcher(deps);
  const address = server.address();
  // The sandbox gateway notifies this server's own route, as a gateway calls a configured URL.
  const sandbox = deps.wiring.paymentProviders.sandbox;
  if (sandbox instanceof SandboxProvider) sandbox.deliverTo(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`);
  let stopping: Promise<void> | undefined;
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    authThrottle,
    stop() {
      // Idempotent: a second caller waits for the same stop.
      stopping ??= (async () => {
        stopSweeps();
        // Scrapes from now on no longer read this server's pool and probes, which close below.
        unwatchPool();
        unwatchBacklog();
        unwatchSalesTally();
        unwatchCaches();
        unwatchReadiness();
        if (sandbox instanceof SandboxProvider) sandbox.stop();
        await stopWebhooks();
        inFlight.stopping = true;
        // Upgraded sockets would keep the HTTP server from closing: end them first.
        await subscriptions.dispose();
        // Apollo's drain plugin stops accepting connections and closes them as they fall idle.
        await apollo.stop();
        // Then wait for responses still being produced on connections that are already closing.
        await inFlight.drained(STOP_GRACE_MS);
        server.closeAllConnections();
        await authThrottle.stop();
        await throttleStore.end();
        await health.close();
        await homeContentChanges.stop();
      })();
      return stopping;
    },
  };
}
