import os from 'node:os';
import { isIP } from 'node:net';
import { createHmac, createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { BASE_CURRENCY } from './currency.js';
import { SETTINGS, type ChoiceName, type ChoiceOf, type FixedIntegerName, type FlagName, type RuledIntegerName, type SettingsEnv } from './settings.js';
/**
 * Configuration comes only from environment variables, validated once at start so that a bad value
 * stops the process with a message naming the variable instead of failing later in a request. Which
 * variables exist, their defaults and bounds are declared in settings.ts (docs/configuration.md is
 * printed from it); this file reads them and checks how they fit together.
 */
export interface MemoryBounds {
  /** Listing totals remembered, one per filter (LISTING_TOTALS_CACHE_FILTERS). */
  listingTotalFilters: number;
  /** Search facets remembered, one set per filter (FACETS_CACHE_FILTERS). */
  facetFilters: number;
  /** Products held by the remembered sales and keyword rankings, 8 to 16 bytes each (RANKING_CACHE_PRODUCTS). */
  rankingProducts: number;
  /** Sign-in attempt counters copied from other processes (SIGN_IN_COUNTS_MAX_KEYS). */
  signInCountKeys: number;
}

export interface AppConfig {
  /** Connection string of an external PostgreSQL; absent means the embedded server is started. */
  databaseUrl: string | undefined;
  /**
   * A direct session to the primary (not through a transaction-pooling PgBouncer) for what needs a
   * session of its own: LISTEN (the events connection) and the migration lock. Default: DATABASE_URL.
   */
  databaseListenUrl: string | undefined;
  /**
   * `session`: DATABASE_URL reaches PostgreSQL directly (or through a session-pooling PgBouncer).
   * `transaction`: through PgBouncer in transaction pooling, where one server session serves many
   * clients between transactions: nothing may rely on session state (README, "Deployment").
   */
  databasePoolMode: 'session' | 'transaction';
  /**
   * Hot reads as named prepared statements, planned once per session (src/db/prepared-statements.ts).
   * Default on in session mode and off in transaction mode: a named statement lives in one server
   * session, which PgBouncer before 1.21 (Debian 12 ships 1.18) does not follow. Turn it on behind
   * PgBouncer >= 1.21 with `max_prepared_statements` set.
   */
  dbPreparedStatements: boolean;
  /** Streaming replicas serving anonymous storefront reads (src/db/read-routing.ts); empty: none. */
  databaseReadUrls: string[];
  /** A replica replaying WAL further behind than this is skipped until it catches up. */
  readReplicaMaxLagMs: number;
  /** A signed-in user's storefront reads stay on the primary this long after any write of theirs. */
  readYourWritesMs: number;
  port: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  nodeEnv: 'development' | 'production' | 'test';
  /** How long a bearer token stays valid after login or registration. */
  tokenTtlHours: number;
  /** Unpaid orders older than this are cancelled by the payment-window sweep. */
  paymentWindowMinutes: number;
  /** A delivered order completes (its shop's earnings are released) this many days after delivery with no open refund; returns are refused past it. */
  afterSaleWindowDays: number;
  /** An Idempotency-Key answers its first result for this long, then it is forgotten. */
  idempotencyKeyTtlHours: number;
  /** How often background sweeps (payment window, ...) run; 0 turns them off. */
  sweepIntervalSeconds: number;
  /**
   * What each per-process memory of the catalog and the sign-in limits may hold, per database: the
   * parts of a server's memory that grow with traffic (docs/operations.md, "Memory").
   */
  memoryBounds: MemoryBounds;
  /** How often open websocket connections have their token checked again (logout, expiry end them). */
  subscriptionRecheckSeconds: number;
  /** Server processes sharing the port (node:cluster); 1 runs in-process. */
  clusterWorkers: number;
  /**
   * Pool size per process: a small pool beats a big one for short transactions (more backends
   * compete for the cores while one holds a hot row; docs/performance.md). Default: about
   * 2 x cores + 1 connections for the whole server, divided among its processes (5 on 2 cores with
   * one process, 3 each with two).
   */
  dbPoolSize: number;
  /**
   * One deadline per request for everything it waits for from the database: pool connections (all
   * its acquisitions together) and answers to its statements. Past it the request answers 503.
   */
  dbAcquireTimeoutMs: number;
  /** PostgreSQL `statement_timeout` of the server's sessions (0: none). */
  dbStatementTimeoutMs: number;
  /** PostgreSQL `idle_in_transaction_session_timeout` of the server's sessions (0: none). */
  dbIdleInTransactionTimeoutMs: number;
  /** PostgreSQL `lock_timeout` of the server's sessions: a statement waiting longer for a row lock fails (409 RESOURCE_LOCKED). */
  dbLockTimeoutMs: number;
  /**
   * Liveness (`/healthz`) fails when the pool has given no connection for this long while a fresh
   * connection to the database works: the pool is stuck and only a restart helps. A database
   * outage alone never fails liveness.
   */
  dbStuckAfterMs: number;
  /** Port of the embedded PostgreSQL when DATABASE_URL is not set. */
  embeddedPgPort: number;
  /** Largest JSON body accepted, in bytes. */
  bodyLimitBytes: number;
  /** JSON answers (REST and GraphQL) of at least this many bytes are compressed for clients that accept it; 0: never. */
  jsonCompressionMinBytes: number;
  /** Serve GraphQL introspection (always on outside production unless turned off). */
  graphqlIntrospection: boolean;
  /** Origins (`https://shop.example`) whose pages may call `/api` and `/graphql` from a browser; empty: same origin only. */
  corsOrigins: string[];
  /** Serve GraphiQL at `GET /graphql` to browsers (on by default in development only). */
  graphiql: boolean;
  /** GraphQL operations deeper, costlier, with more aliases or more tokens than these are refused. */
  graphqlLimits: GraphQLLimits;
  /**
   * How checkouts write their orders (src/services/checkout/order-writer.ts): `combined` (one statement that
   * commits on its own, shared under load by concurrent checkouts; measured faster) or
   * `transactional` (one transaction, one plain guarded write per step).
   */
  checkoutWriter: 'combined' | 'transactional';
  /** How HTTP GraphQL operations execute (src/graphql/operation-executor.ts). */
  graphqlExecutor: 'compiled' | 'standard';
  /**
   * `GET /metrics` (Prometheus): `off` (404), `public` (anyone who reaches the port), or `token`
   * (`Authorization: Bearer METRICS_TOKEN`). Default: `public` outside production; in production
   * `token` when METRICS_TOKEN is set, else `off` (never public unless asked for).
   */
  metrics: { exposure: 'off' | 'public' | 'token'; token: string | undefined };
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT: where OpenTelemetry traces go; unset, tracing is off. The SDK reads it
   * (and the other standard OTEL_* variables) itself, before this configuration is loaded (src/main.ts,
   * src/tracing.ts `tracingWanted`); it is here so the process can say at start where its traces go.
   */
  otlpEndpoint: string | undefined;
  /** `compiled`: how many times a document runs before it is compiled (1: at once). */
  graphqlCompileAfter: number;
  /** A SKU whose stock falls below this after a sale raises a `stock.low` event. */
  stockLowThreshold: number;
  /**
   * Express `trust proxy`: which proxies' `X-Forwarded-For` names the client. Off by default, so a
   * client cannot pick the address its sign-in attempts are counted under.
   */
  trustProxy: TrustProxy;
  /** Sign-in and registration limits (counted in memory, shared by all processes through PostgreSQL). */
  authThrottle: AuthThrottleLimits;
  /** The device tokens a successful sign-in hands out (src/shared/device-token.ts). */
  deviceTokens: DeviceTokenConfig;
  /** Password hashes (scrypt) computed at once per process, and how many may wait per lane. */
  passwordHashing: { concurrency: number; queueLimit: number };
  /** Operations one websocket may have running at once (subscriptions, mostly). */
  maxSubscriptionsPerSocket: number;
  /** Websockets one user may hold open at once in one server process. */
  maxSocketsPerUser: number;
  /** Websockets not (yet) signed in that one client address may hold open at once in one server process. */
  maxAnonymousSocketsPerAddress: number;
  /** The event outbox and its relay (src/services/events/postgres-event-bus.ts). */
  outbox: OutboxConfig;
  /** The ways to pay and their providers' settings (src/services/payments). */
  payments: PaymentsConfig;
  /** Outbound webhooks (src/services/events/webhooks/). */
  webhooks: WebhookConfig;
  mail: MailConfig;
  media: MediaConfig;
}

/** Where uploaded pictures are kept (src/services/media/media-store.ts) and how large one may be. */
export interface MediaConfig {
  maxBytes: number;
  store: { kind: 'disk'; dir: string } | { kind: 's3'; bucket: string; region: string; endpoint: string | undefined; credentials: { accessKeyId: string; secretAccessKey: string } | undefined };
}

/** Outgoing email: the SMTP server (none: messages are logged), the sender, and the origin links point at. */
export interface MailConfig {
  smtpUrl: string | undefined;
  from: string;
  /** This server's origin as people reach it (PUBLIC_URL): the links in emails start with it. */
  publicUrl: string | undefined;
  /** Seals queued emails (they carry one-time links): derived from DEVICE_TOKEN_SECRET, the same in every process. */
  sealKey: Buffer;
}

export interface OutboxConfig {
  /** How often each process's relay looks for events without being woken. */
  pollMs: number;
  /** Events are kept this long, then pruned by the sweep; a feed resumed from an older id is refused. */
  retentionSeconds: number;
}

export interface WebhookConfig {
  /** This process sends deliveries (off: it only serves; other processes deliver). */
  dispatch: boolean;
  /** Private, loopback and link-local addresses may be webhook targets (tests and development only). */
  allowPrivate: boolean;
  /** Plain `http://` URLs are accepted (development only: outside it an endpoint must be https). */
  allowHttp: boolean;
  /** Deliveries to one endpoint in flight at once, across all processes. */
  maxConcurrencyPerEndpoint: number;
  /** One attempt's deadline: connect, send and read the answer. */
  timeoutMs: number;
  /** At most this many bytes of an answer are read (the first KiB is logged). */
  maxResponseBytes: number;
  /** Waits after the first, second, ... failed attempt (jittered ±20%); after the last, the delivery fails. */
  retryDelaysSeconds: number[];
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterSeconds: number;
  /** After a secret rotation, the previous secret signs too for this long. */
  secretOverlapSeconds: number;
}

/**
 * `false` (no proxy), a number of proxy hops in front of the server, or the proxies' addresses,
 * subnets and `loopback`/`linklocal`/`uniquelocal`. Never `true`: that believes any client.
 */
export type TrustProxy = false | number | string[];

export interface DeviceTokenConfig {
  /** HMAC key of the tokens; every process of one server must have the same. */
  secret: string;
  /** True when no DEVICE_TOKEN_SECRET was given and this process made one up (development, test). */
  generated: boolean;
  /** A device token is honoured for this long after the sign-in that issued it. */
  ttlDays: number;
}

export interface AuthThrottleLimits {
  /** The window every count below is kept for. */
  windowSeconds: number;
  /**
   * Failed logins on one account from one client address (without a device token) before that
   * address is refused for that account; also the account's failures from all addresses together
   * after which it counts as under attack. Failures with a device token count per device, same limit.
   */
  loginPerAccount: number;
  /** Failed logins (without a device token) from one client address, whatever the account. */
  loginPerIp: number;
  registerPerIp: number;
  registerPerEmail: number;
  /** Longest delay a login without a device token gets while its account is under attack. */
  untrustedMaxDelayMs: number;
  /** How often a process sends its counts to PostgreSQL and reads the other processes' counts. */
  syncIntervalMs: number;
  /** A sign-in refusal (429, 503) is answered after this long (at most its Retry-After): see `AuthThrottle.holdRefusal`. */
  refusalHoldMs: number;
}

export interface GraphQLLimits {
  /** Nesting of fields (`{ me { id } }` is 2). */
  maxDepth: number;
  /** graphql-armor's cost: 2 per object field, 1 per scalar, times 1.5 per level of nesting. */
  maxCost: number;
  maxAliases: number;
  /** Lexical tokens of the whole document. */
  maxTokens: number;
  maxDirectives: number;
}

/** The ways to pay. A method is offered only when configured (PAYMENT_METHODS). */
export const PAYMENT_METHODS = ['wallet', 'sandbox', 'stripe', 'alipay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface PaymentsConfig {
  /** The methods offered to customers, in the order they are listed. */
  methods: PaymentMethod[];
  /** A gateway payment still pending this long is queried at its provider by the sweep (a lost notification). */
  queryAfterSeconds: number;
  /** The development gateway: how long its simulated customer takes, and the key its notifications are signed with. */
  sandbox: { delayMs: number; secret: string };
  /** Stripe: the secret API key, the webhook endpoint's signing secret, and (tests) another API address. */
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string; apiUrl: string | undefined } | null;
  alipay: AlipayConfig | null;
}

/** Alipay (public-key mode): the app, its keys, the gateway, and where Alipay sends the customer and its notifications. */
export interface AlipayConfig {
  appId: string;
  /** The app's private key, as PEM of the form `keyType` names (the SDK's own two). */
  privateKey: string;
  keyType: 'PKCS1' | 'PKCS8';
  /** Alipay's public key (SPKI PEM): notifications and answers are checked against it. */
  alipayPublicKey: string;
  /** `gateway.do` of Alipay (or of the tests' stand-in). */
  gatewayUrl: string;
  /** This server's origin as customers and Alipay reach it: `notify_url` and `return_url` are made from it. */
  publicUrl: string;
  /** Alipay closes an unpaid trade after this many minutes (`timeout_express`): the payment window. */
  timeoutMinutes: number;
}

export class ConfigError extends Error {}

type Env = SettingsEnv;

/**
 * WEBHOOK_RETRY_DELAYS_SECONDS: the waits between attempts. The default follows Standard Webhooks'
 * example schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h): eight attempts over about 27 hours.
 */
function retryDelays(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_DELAYS_SECONDS;
  if (raw === undefined || raw === '') return [5, 300, 1800, 7200, 18_000, 36_000, 36_000];
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.length > 20 || delays.some((d) => !Number.isFinite(d) || d < 0 || d > 7 * 86_400)) {
    throw new ConfigError(`WEBHOOK_RETRY_DELAYS_SECONDS must be up to 20 comma-separated numbers of seconds between 0 and 604800, got "${raw}"`);
  }
  return delays;
}

/** A whole number within the setting's bounds (settings.ts); a default that is a rule comes worked out as `fallback`. */
function integer(env: Env, name: FixedIntegerName): number;
function integer(env: Env, name: RuledIntegerName, fallback: number): number;
function integer(env: Env, name: FixedIntegerName | RuledIntegerName, fallback?: number): number {
  const setting = SETTINGS[name];
  const raw = env[name];
  if (raw === undefined || raw === '') return typeof setting.default === 'number' ? setting.default : fallback!;
  return wholeNumber(name, raw, setting.min, setting.max);
}

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** One of the setting's words (settings.ts); a default that is a rule comes worked out as `fallback`. */
function oneOf<N extends ChoiceName>(env: Env, name: N, fallback?: ChoiceOf<N>): ChoiceOf<N> {
  const setting: { values: readonly string[]; default: string | { rule: string } } = SETTINGS[name];
  const raw = env[name];
  if (raw === undefined || raw === '') return (typeof setting.default === 'string' ? setting.default : fallback!) as ChoiceOf<N>;
  if (!setting.values.includes(raw)) throw new ConfigError(`${name} must be one of ${setting.values.join(', ')}, got "${raw}"`);
  return raw as ChoiceOf<N>;
}

/** METRICS and METRICS_TOKEN (see `AppConfig.metrics`). */
function metricsExposure(env: Env, nodeEnv: AppConfig['nodeEnv']): AppConfig['metrics'] {
  const token = env.METRICS_TOKEN === '' ? undefined : env.METRICS_TOKEN;
  if (token !== undefined && (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError('METRICS_TOKEN must be 16 or more printable characters without spaces');
  }
  const fallback = nodeEnv === 'production' ? (token ? 'token' : 'off') : 'public';
  const exposure = oneOf(env, 'METRICS', fallback);
  if (exposure === 'token' && !token) throw new ConfigError('METRICS=token needs METRICS_TOKEN (16 or more characters)');
  return { exposure, token };
}

function bool(env: Env, name: FlagName, fallback?: boolean): boolean {
  const setting: { default: boolean | { rule: string } } = SETTINGS[name];
  const raw = env[name];
  if (raw === undefined || raw === '') return typeof setting.default === 'boolean' ? setting.default : fallback!;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true would believe the X-Forwarded-For of any client, so anyone could pick the address they are counted under. ' +
        'Give the number of proxies in front of the server (TRUST_PROXY=1 behind one reverse proxy) or their addresses or subnets (TRUST_PROXY=10.0.0.0/8 or loopback); see docs/operations.md',
    );
  }
  if (/^\d+$/.test(raw)) return wholeNumber('TRUST_PROXY', raw, 0, 32);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 6 ? 128 : 32));
    if (PROXY_NAMES.has(entry) || (isIP(address) !== 0 && validBits && rest.length === 0)) continue;
    throw new ConfigError(`TRUST_PROXY must be false, a number of proxy hops, or addresses, subnets or loopback/linklocal/uniquelocal separated by commas; got "${entry}"`);
  }
  return entries;
}

function corsOrigins(env: Env): string[] {
  const raw = env.CORS_ORIGINS?.trim();
  if (raw === undefined || raw === '') return [];
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // An origin is exactly scheme://host[:port], as a browser sends it in the Origin header.
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(`CORS_ORIGINS must be origins such as https://shop.example or http://localhost:5173 separated by commas; got "${origin}"`);
    }
    return origin;
  });
}

/**
 * PAYMENT_METHODS (default: wallet, sandbox outside production, stripe when its keys are set, alipay when ALIPAY_APP_ID is). The
 * sandbox gateway pays without any money moving at a provider, so a production server refuses to start
 * with it. Its notifications are signed with a key derived from DEVICE_TOKEN_SECRET, which every
 * process of one server shares.
 */
function payments(env: Env, nodeEnv: AppConfig['nodeEnv'], deviceSecret: string, paymentWindowMinutes: number): PaymentsConfig {
  const stripeKey = env.STRIPE_SECRET_KEY ?? '';
  const stripeHook = env.STRIPE_WEBHOOK_SECRET ?? '';
  const stripePublishable = env.STRIPE_PUBLISHABLE_KEY?.trim() ?? '';
  const raw = env.PAYMENT_METHODS?.trim();
  const methods: PaymentMethod[] = raw
    ? raw.split(',').map((entry) => {
        const method = entry.trim();
        if (!(PAYMENT_METHODS as readonly string[]).includes(method)) {
          throw new ConfigError(`PAYMENT_METHODS must be methods among ${PAYMENT_METHODS.join(', ')} separated by commas, got "${method}"`);
        }
        return method as PaymentMethod;
      })
    : ['wallet', ...(nodeEnv === 'production' ? [] : (['sandbox'] as const)), ...(stripeKey ? (['stripe'] as const) : []), ...(env.ALIPAY_APP_ID ? (['alipay'] as const) : [])];
  if (new Set(methods).size !== methods.length) throw new ConfigError(`PAYMENT_METHODS lists a method twice: "${raw}"`);
  if (methods.includes('sandbox') && nodeEnv === 'production') {
    throw new ConfigError('PAYMENT_METHODS: the sandbox gateway is for development only (it pays without money) and is refused with NODE_ENV=production');
  }
  if (methods.includes('stripe') && (!stripeKey || !stripeHook || !stripePublishable)) {
    throw new ConfigError(
      'PAYMENT_METHODS lists stripe: set STRIPE_SECRET_KEY (sk_...), STRIPE_PUBLISHABLE_KEY (pk_..., given to Stripe.js in the browser) and STRIPE_WEBHOOK_SECRET (whsec_..., the webhook endpoint\'s signing secret)',
    );
  }
  if (methods.includes('stripe') && !stripePublishable.startsWith('pk_')) {
    throw new ConfigError(`STRIPE_PUBLISHABLE_KEY must be a publishable key (pk_...), never the secret one; got one starting "${stripePublishable.slice(0, 3)}"`);
  }
  const stripeApiUrl = env.STRIPE_API_URL?.trim() || undefined;
  if (stripeApiUrl && !/^https?:\/\/[^/]+\/?$/.test(stripeApiUrl)) throw new ConfigError(`STRIPE_API_URL must be an origin such as http://127.0.0.1:12111, got "${stripeApiUrl}"`);
  return {
    methods,
    queryAfterSeconds: integer(env, 'PAYMENT_QUERY_AFTER_SECONDS'),
    sandbox: { delayMs: integer(env, 'SANDBOX_PAYMENT_DELAY_MS'), secret: createHmac('sha256', deviceSecret).update('sandbox-payments').digest('base64url') },
    stripe: methods.includes('stripe') ? { secretKey: stripeKey, publishableKey: stripePublishable, webhookSecret: stripeHook, apiUrl: stripeApiUrl } : null,
    alipay: methods.includes('alipay') ? alipay(env, paymentWindowMinutes) : null,
  };
}

/**
 * ALIPAY_*: read only when `alipay` is offered, and checked here (each key parsed), so a wrong key
 * stops the start instead of failing the first customer. Keys may be PEM or the bare base64 Alipay's
 * key tool writes, with `\n` for line breaks as environment files often hold them.
 */
function alipay(env: Env, paymentWindowMinutes: number): AlipayConfig {
  const required = { ALIPAY_APP_ID: env.ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY: env.ALIPAY_PRIVATE_KEY, ALIPAY_PUBLIC_KEY: env.ALIPAY_PUBLIC_KEY, PUBLIC_URL: env.PUBLIC_URL };
  const missing = Object.entries(required).filter(([, value]) => !value?.trim()).map(([name]) => name);
  if (missing.length > 0) {
    throw new ConfigError(`PAYMENT_METHODS lists alipay: set ${missing.join(', ')} (the app id, the app's private key, Alipay's public key, and this server's public origin for notify_url and return_url)`);
  }
  // Alipay trades in yuan only (its cross-border products aside): a mall in another currency cannot offer it.
  if ((BASE_CURRENCY.code as string) !== 'CNY') throw new ConfigError(`PAYMENT_METHODS lists alipay, which takes CNY only; this mall's currency is ${BASE_CURRENCY.code}`);
  const appId = required.ALIPAY_APP_ID!.trim();
  if (!/^\d{16}$/.test(appId)) throw new ConfigError(`ALIPAY_APP_ID must be the app's 16-digit id, got "${appId}"`);
  const gatewayUrl = env.ALIPAY_GATEWAY_URL?.trim() || 'https://openapi.alipay.com/gateway.do';
  if (!/^https?:\/\/[^/]+\/.*gateway\.do$/.test(gatewayUrl)) throw new ConfigError(`ALIPAY_GATEWAY_URL must be a gateway address ending in gateway.do (https://openapi-sandbox.dl.alipaydev.com/gateway.do), got "${gatewayUrl}"`);
  const publicUrl = required.PUBLIC_URL!.trim().replace(/\/$/, '');
  if (!/^https?:\/\/[^/]+$/.test(publicUrl)) throw new ConfigError(`PUBLIC_URL must be an origin such as https://mall.example, got "${publicUrl}"`);
  const text = (raw: string) => raw.trim().replace(/\\n/g, '\n');
  let privateKey: string;
  let keyType: AlipayConfig['keyType'];
  try {
    ({ privateKey, keyType } = appPrivateKey(text(required.ALIPAY_PRIVATE_KEY!)));
  } catch (error) {
    throw new ConfigError(`ALIPAY_PRIVATE_KEY must be the app's RSA private key (PEM, or the base64 Alipay's key tool writes): ${error instanceof Error ? error.message : String(error)}`);
  }
  let alipayPublicKey = text(required.ALIPAY_PUBLIC_KEY!);
  try {
    if (!alipayPublicKey.includes('-----BEGIN')) alipayPublicKey = pemOf(alipayPublicKey, 'PUBLIC KEY');
    if (createPublicKey(alipayPublicKey).asymmetricKeyType !== 'rsa') throw new Error('not an RSA key');
  } catch (error) {
    throw new ConfigError(`ALIPAY_PUBLIC_KEY must be Alipay's RSA public key (PEM, or the base64 shown in Alipay's console; not the app's own): ${error instanceof Error ? error.message : String(error)}`);
  }
  return { appId, privateKey, keyType, alipayPublicKey, gatewayUrl, publicUrl, timeoutMinutes: paymentWindowMinutes };
}

const pemOf = (base64: string, label: string) => `-----BEGIN ${label}-----\n${base64.replace(/\s+/g, '').replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;

/** The app's key as PEM and which of the SDK's two forms it is; bare base64 is PKCS#8 (Alipay's key tool) or else PKCS#1. */
function appPrivateKey(raw: string): { privateKey: string; keyType: AlipayConfig['keyType'] } {
  let privateKey = raw;
  if (!raw.includes('-----BEGIN')) {
    const der = Buffer.from(raw.replace(/\s+/g, ''), 'base64');
    let pkcs8 = true;
    try {
      createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    } catch {
      pkcs8 = false;
    }
    privateKey = pemOf(raw, pkcs8 ? 'PRIVATE KEY' : 'RSA PRIVATE KEY');
  }
  if (createPrivateKey(privateKey).asymmetricKeyType !== 'rsa') throw new Error('not an RSA key');
  return { privateKey, keyType: privateKey.includes('BEGIN RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8' };
}

/** Made once per process when DEVICE_TOKEN_SECRET is not set (development and test only). */
let generatedSecret: string | undefined;

function deviceTokens(env: Env, nodeEnv: AppConfig['nodeEnv']): DeviceTokenConfig {
  const ttlDays = integer(env, 'DEVICE_TOKEN_TTL_DAYS');
  const raw = env.DEVICE_TOKEN_SECRET;
  if (raw !== undefined && raw !== '') {
    if (raw.length < 32) throw new ConfigError(`DEVICE_TOKEN_SECRET must be at least 32 characters (try: openssl rand -base64 48), got ${raw.length}`);
    return { secret: raw, generated: false, ttlDays };
  }
  if (nodeEnv === 'production') {
    throw new ConfigError('DEVICE_TOKEN_SECRET is required in production: the same random text of at least 32 characters for every server process (try: openssl rand -base64 48)');
  }
  generatedSecret ??= randomBytes(48).toString('base64url');
  return { secret: generatedSecret, generated: true, ttlDays };
}

/** SMTP_URL, MAIL_FROM and the PUBLIC_URL links are made from. */
function mail(env: Env, deviceSecret: string): MailConfig {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (smtpUrl && !/^smtps?:\/\/[^/]+\/?$/.test(smtpUrl)) throw new ConfigError('SMTP_URL must be smtp://[user:password@]host[:port] or smtps://..., such as smtps://mailer:secret@mail.example:465');
  const publicUrl = env.PUBLIC_URL?.trim().replace(/\/$/, '') || undefined;
  if (publicUrl && !/^https?:\/\/[^/]+$/.test(publicUrl)) throw new ConfigError(`PUBLIC_URL must be an origin such as https://mall.example, got "${publicUrl}"`);
  if (smtpUrl && !publicUrl) throw new ConfigError('SMTP_URL is set: set PUBLIC_URL too (https://mall.example), the origin the links in emails point at');
  const from = env.MAIL_FROM?.trim() || 'Mallfront <no-reply@localhost>';
  if (!/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+>?$/.test(from)) throw new ConfigError(`MAIL_FROM must be an address such as Mallfront <no-reply@mall.example>, got "${from}"`);
  return { smtpUrl, from, publicUrl, sealKey: createHmac('sha256', deviceSecret).update('outgoing-mail').digest() };
}

/** MEDIA_STORE and its settings; an `s3` store without its bucket, or with half a key, is refused at start. */
function media(env: Env): MediaConfig {
  const maxBytes = integer(env, 'MEDIA_MAX_BYTES');
  if (oneOf(env, 'MEDIA_STORE') === 'disk') return { maxBytes, store: { kind: 'disk', dir: env.MEDIA_DIR?.trim() || '.data/media' } };
  const bucket = env.MEDIA_S3_BUCKET?.trim();
  if (!bucket || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`MEDIA_STORE=s3 needs MEDIA_S3_BUCKET, a bucket name (3-63 lower-case letters, digits, dots and dashes), got "${bucket ?? ''}"`);
  const endpoint = env.MEDIA_S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\/[^/]+\/?$/.test(endpoint)) throw new ConfigError(`MEDIA_S3_ENDPOINT must be http(s)://host[:port], got "${endpoint}"`);
  const accessKeyId = env.MEDIA_S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.MEDIA_S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new ConfigError('MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY go together: set both, or neither for the AWS SDK\'s own chain');
  const credentials = accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined;
  return { maxBytes, store: { kind: 's3', bucket, region: env.MEDIA_S3_REGION?.trim() || 'us-east-1', endpoint, credentials } };
}

function postgresUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL such as postgres://user:password@host:5432/mallfront`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`${name} must start with postgres:// or postgresql://, got "${url.protocol}"`);
  }
  return raw;
}

function databaseUrl(env: Env, name: 'DATABASE_URL' | 'DATABASE_LISTEN_URL'): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  return postgresUrl(name, raw);
}

function databaseReadUrls(env: Env): string[] {
  const raw = env.DATABASE_READ_URLS?.trim();
  if (raw === undefined || raw === '') return [];
  return raw.split(',').map((entry) => postgresUrl('DATABASE_READ_URLS', entry.trim()));
}

/** The database settings that depend on each other (pooling, the direct session, replicas). */
function databaseSettings(env: Env) {
  const url = databaseUrl(env, 'DATABASE_URL');
  const listenUrl = databaseUrl(env, 'DATABASE_LISTEN_URL');
  const poolMode = oneOf(env, 'DATABASE_POOL_MODE');
  if (poolMode === 'transaction' && (!url || !listenUrl)) {
    throw new ConfigError(
      'DATABASE_POOL_MODE=transaction needs DATABASE_URL (the PgBouncer) and DATABASE_LISTEN_URL (a direct session to the primary, for LISTEN and migrations): LISTEN through a transaction pooler would silently receive nothing',
    );
  }
  const readUrls = databaseReadUrls(env);
  if (readUrls.length > 0 && !url) throw new ConfigError('DATABASE_READ_URLS needs DATABASE_URL: the replicas follow an external primary, not the embedded PostgreSQL');
  const maxLag = integer(env, 'READ_REPLICA_MAX_LAG_MS');
  const readYourWrites = integer(env, 'READ_YOUR_WRITES_MS');
  // A replica may be up to maxLag behind (and the lag is measured every so often): a window shorter
  // than that would send a customer's read to a replica that has not replayed their write yet.
  if (readUrls.length > 0 && readYourWrites <= maxLag) {
    throw new ConfigError(`READ_YOUR_WRITES_MS must be above READ_REPLICA_MAX_LAG_MS (${maxLag}), got ${readYourWrites}`);
  }
  return {
    databaseUrl: url,
    databaseListenUrl: listenUrl,
    databasePoolMode: poolMode,
    dbPreparedStatements: bool(env, 'DATABASE_PREPARED_STATEMENTS', poolMode === 'session'),
    databaseReadUrls: readUrls,
    readReplicaMaxLagMs: maxLag,
    readYourWritesMs: readYourWrites,
  };
}

/**
 * `lock_timeout` must fire before `statement_timeout`, or a statement waiting for a lock is cut as
 * if it ran away (503) instead of being told the row is busy (409).
 */
function lockTimeout(env: Env): number {
  const statement = integer(env, 'DB_STATEMENT_TIMEOUT_MS');
  const lock = integer(env, 'DB_LOCK_TIMEOUT_MS');
  if (statement > 0 && (lock === 0 || lock >= statement)) {
    throw new ConfigError(`DB_LOCK_TIMEOUT_MS must be above 0 and below DB_STATEMENT_TIMEOUT_MS (${statement}), got ${lock}`);
  }
  return lock;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV');
  const clusterWorkers = integer(env, 'CLUSTER_WORKERS');
  // About 2 x cores + 1 connections for the whole server, shared by its processes.
  const defaultPoolSize = Math.max(2, Math.ceil((2 * os.availableParallelism() + 1) / clusterWorkers));
  const devices = deviceTokens(env, nodeEnv);
  const paymentWindowMinutes = integer(env, 'PAYMENT_WINDOW_MINUTES');
  return {
    ...databaseSettings(env),
    port: integer(env, 'PORT'),
    logLevel: oneOf(env, 'LOG_LEVEL'),
    nodeEnv,
    tokenTtlHours: integer(env, 'TOKEN_TTL_HOURS'),
    paymentWindowMinutes,
    afterSaleWindowDays: integer(env, 'AFTER_SALE_WINDOW_DAYS'),
    idempotencyKeyTtlHours: integer(env, 'IDEMPOTENCY_KEY_TTL_HOURS'),
    sweepIntervalSeconds: integer(env, 'SWEEP_INTERVAL_SECONDS'),
    memoryBounds: {
      listingTotalFilters: integer(env, 'LISTING_TOTALS_CACHE_FILTERS'),
      facetFilters: integer(env, 'FACETS_CACHE_FILTERS'),
      rankingProducts: integer(env, 'RANKING_CACHE_PRODUCTS'),
      signInCountKeys: integer(env, 'SIGN_IN_COUNTS_MAX_KEYS'),
    },
    subscriptionRecheckSeconds: integer(env, 'SUBSCRIPTION_RECHECK_SECONDS'),
    clusterWorkers,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', defaultPoolSize),
    dbAcquireTimeoutMs: integer(env, 'DB_ACQUIRE_TIMEOUT_MS'),
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS'),
    dbIdleInTransactionTimeoutMs: integer(env, 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
    dbLockTimeoutMs: lockTimeout(env),
    dbStuckAfterMs: integer(env, 'DB_STUCK_AFTER_MS'),
    embeddedPgPort: integer(env, 'EMBEDDED_PG_PORT'),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES'),
    jsonCompressionMinBytes: integer(env, 'JSON_COMPRESSION_MIN_BYTES'),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
    corsOrigins: corsOrigins(env),
    graphiql: bool(env, 'GRAPHIQL', nodeEnv === 'development'),
    graphqlLimits: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH'),
      maxCost: integer(env, 'GRAPHQL_MAX_COST'),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES'),
      maxTokens: integer(env, 'GRAPHQL_MAX_TOKENS'),
      maxDirectives: 50,
    },
    checkoutWriter: oneOf(env, 'CHECKOUT_WRITER'),
    graphqlExecutor: oneOf(env, 'GRAPHQL_EXECUTOR'),
    metrics: metricsExposure(env, nodeEnv),
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined,
    graphqlCompileAfter: integer(env, 'GRAPHQL_COMPILE_AFTER'),
    stockLowThreshold: integer(env, 'STOCK_LOW_THRESHOLD'),
    trustProxy: trustProxy(env),
    authThrottle: {
      windowSeconds: integer(env, 'AUTH_THROTTLE_WINDOW_SECONDS'),
      loginPerAccount: integer(env, 'LOGIN_MAX_ATTEMPTS_PER_ACCOUNT'),
      loginPerIp: integer(env, 'LOGIN_MAX_ATTEMPTS_PER_IP'),
      registerPerIp: integer(env, 'REGISTER_MAX_PER_IP'),
      registerPerEmail: integer(env, 'REGISTER_MAX_PER_EMAIL'),
      untrustedMaxDelayMs: 3_000,
      syncIntervalMs: 500,
      refusalHoldMs: 1_000,
    },
    deviceTokens: devices,
    payments: payments(env, nodeEnv, devices.secret, paymentWindowMinutes),
    passwordHashing: {
      // Half the cores (at least one): scrypt is pure CPU, and the other half keeps serving requests.
      concurrency: integer(env, 'PASSWORD_HASH_CONCURRENCY', Math.max(1, Math.floor(os.availableParallelism() / 2))),
      queueLimit: integer(env, 'PASSWORD_HASH_QUEUE'),
    },
    maxSubscriptionsPerSocket: integer(env, 'MAX_SUBSCRIPTIONS_PER_SOCKET'),
    maxSocketsPerUser: integer(env, 'MAX_SOCKETS_PER_USER'),
    maxAnonymousSocketsPerAddress: integer(env, 'MAX_ANONYMOUS_SOCKETS_PER_ADDRESS'),
    outbox: {
      pollMs: integer(env, 'OUTBOX_POLL_MS'),
      retentionSeconds: integer(env, 'EVENT_RETENTION_SECONDS'),
    },
    mail: mail(env, devices.secret),
    media: media(env),
    webhooks: {
      dispatch: bool(env, 'WEBHOOK_DISPATCH'),
      allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE'),
      allowHttp: nodeEnv === 'development',
      maxConcurrencyPerEndpoint: integer(env, 'WEBHOOK_MAX_CONCURRENCY'),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS'),
      maxResponseBytes: integer(env, 'WEBHOOK_MAX_RESPONSE_BYTES'),
      retryDelaysSeconds: retryDelays(env),
      disableAfterSeconds: integer(env, 'WEBHOOK_DISABLE_AFTER_SECONDS'),
      secretOverlapSeconds: integer(env, 'WEBHOOK_SECRET_OVERLAP_SECONDS'),
    },
  };
}
