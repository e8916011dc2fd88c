/**
 * Every environment variable the server reads, with its kind, default, bounds and meaning: the one
 * description of the configuration. `loadConfig` (config.ts) can read only the names declared here
 * (its environment is typed by them) and takes defaults and bounds from here; docs/configuration.md
 * is printed from this table (`npm run print:configuration`) and test/configuration.test.ts holds
 * the printed file to it, so the documentation cannot drift from what is read.
 */
interface Described {
  /** The heading it is listed under in docs/configuration.md. */
  group: string;
  meaning: string;
}

/** A whole number within bounds; a default worked out at start (from the cores, say) is given as its rule. */
interface IntegerSetting extends Described {
  kind: 'integer';
  default: number | { rule: string };
  min: number;
  max: number;
}

/** One of a few words; a default that depends on other settings is given as its rule. */
interface ChoiceSetting extends Described {
  kind: 'choice';
  values: readonly string[];
  default: string | { rule: string };
}

/** `true`/`false` (also `1`/`0`, `yes`/`no`). */
interface FlagSetting extends Described {
  kind: 'flag';
  default: boolean | { rule: string };
}

/** Text checked by its own reader in config.ts (addresses, keys, lists): the default says what unset means. */
interface TextSetting extends Described {
  kind: 'text';
  /** What a value looks like, for the documentation (config.ts checks it). */
  accepts: string;
  default: { rule: string };
}

export type Setting = IntegerSetting | ChoiceSetting | FlagSetting | TextSetting;

const DATABASE = 'Database';
const SERVER = 'Server';
const PAYMENTS = 'Payments';
const ORDERS = 'Orders and sweeps';
const MEMORY = 'Memory';
const GRAPHQL = 'GraphQL';
const SIGN_IN = 'Sign-in and connections';
const OBSERVE = 'Metrics and traces';
const EVENTS = 'Events and webhooks';
const MAIL = 'Email';
const MEDIA = 'Media';

export const SETTINGS = {
  DATABASE_URL: {
    group: DATABASE,
    kind: 'text',
    accepts: 'a `postgres://` URL',
    default: { rule: 'unset: embedded PostgreSQL' },
    meaning: '`postgres://user:password@host:port/db`',
  },
  DATABASE_LISTEN_URL: {
    group: DATABASE,
    kind: 'text',
    accepts: 'a `postgres://` URL',
    default: { rule: '`DATABASE_URL`' },
    meaning: 'a direct session to the primary (never through a transaction pooler): LISTEN of the events connection, migrations, the seed',
  },
  DATABASE_POOL_MODE: {
    group: DATABASE,
    kind: 'choice',
    values: ['session', 'transaction'],
    default: 'session',
    meaning: '`transaction` when `DATABASE_URL` is a PgBouncer in transaction pooling (docs/operations.md, "Deployment"); needs `DATABASE_LISTEN_URL`',
  },
  DATABASE_PREPARED_STATEMENTS: {
    group: DATABASE,
    kind: 'flag',
    default: { rule: 'on in `session`, off in `transaction`' },
    meaning: 'hot reads as named prepared statements; turn on behind PgBouncer >= 1.21 with `max_prepared_statements`',
  },
  DATABASE_READ_URLS: {
    group: DATABASE,
    kind: 'text',
    accepts: '`postgres://` URLs separated by commas',
    default: { rule: 'unset: no replica' },
    meaning: 'streaming replicas of the primary, separated by commas, serving anonymous storefront reads; needs `DATABASE_URL`',
  },
  READ_REPLICA_MAX_LAG_MS: {
    group: DATABASE,
    kind: 'integer',
    default: 1_000,
    min: 0,
    max: 3_600_000,
    meaning: 'a replica replaying further behind than this (or down) is skipped; reads fall back to the primary',
  },
  READ_YOUR_WRITES_MS: {
    group: DATABASE,
    kind: 'integer',
    default: 5_000,
    min: 0,
    max: 3_600_000,
    meaning: "a signed-in user's storefront reads stay on the primary this long after any write of theirs; above `READ_REPLICA_MAX_LAG_MS`",
  },
  DB_POOL_SIZE: {
    group: DATABASE,
    kind: 'integer',
    default: { rule: '(2 × cores + 1) / `CLUSTER_WORKERS`, at least 2' },
    min: 1,
    max: 200,
    meaning:
      'connections per process, kept open once made: about 2 × cores + 1 for the whole server (a small pool serves short transactions best; see docs/performance.md)',
  },
  DB_ACQUIRE_TIMEOUT_MS: {
    group: DATABASE,
    kind: 'integer',
    default: 5_000,
    min: 50,
    max: 600_000,
    meaning:
      'one deadline per request for all it waits for from the database (pool connections, answers); past it, 503 `SERVICE_UNAVAILABLE` instead of hanging (docs/operations.md)',
  },
  DB_STATEMENT_TIMEOUT_MS: {
    group: DATABASE,
    kind: 'integer',
    default: 30_000,
    min: 0,
    max: 3_600_000,
    meaning: "PostgreSQL `statement_timeout` of the server's sessions (`0`: none); a statement cut off answers 503",
  },
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: {
    group: DATABASE,
    kind: 'integer',
    default: 10_000,
    min: 0,
    max: 3_600_000,
    meaning: "PostgreSQL `idle_in_transaction_session_timeout` of the server's sessions (`0`: none)",
  },
  DB_LOCK_TIMEOUT_MS: {
    group: DATABASE,
    kind: 'integer',
    default: 2_000,
    min: 0,
    max: 3_600_000,
    meaning:
      'PostgreSQL `lock_timeout`, above 0 and below `DB_STATEMENT_TIMEOUT_MS`: a request waiting longer for a row another session holds gets 409 `RESOURCE_LOCKED`',
  },
  DB_STUCK_AFTER_MS: {
    group: DATABASE,
    kind: 'integer',
    default: 30_000,
    min: 1_000,
    max: 3_600_000,
    meaning:
      '`/healthz` fails (503 `DATABASE_POOL_STUCK`) when the pool has given no connection for this long while a fresh connection to the database works; a database outage alone never fails it',
  },
  EMBEDDED_PG_PORT: {
    group: DATABASE,
    kind: 'integer',
    default: 54329,
    min: 1,
    max: 65535,
    meaning: 'port of the embedded PostgreSQL',
  },

  PORT: {
    group: SERVER,
    kind: 'integer',
    default: 4000,
    min: 0,
    max: 65535,
    meaning: 'HTTP port for `/graphql`, `/api`, `/healthz`, `/readyz`',
  },
  NODE_ENV: {
    group: SERVER,
    kind: 'choice',
    values: ['development', 'production', 'test'],
    default: 'development',
    meaning: 'production: no demo seed, no GraphiQL, no introspection unless asked, no sandbox payments',
  },
  LOG_LEVEL: {
    group: SERVER,
    kind: 'choice',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    meaning: 'JSON logs with a request id',
  },
  CLUSTER_WORKERS: {
    group: SERVER,
    kind: 'integer',
    default: 1,
    min: 1,
    max: 64,
    meaning: 'server processes sharing the port (`node:cluster`); set it to the number of cores in production',
  },
  BODY_LIMIT_BYTES: {
    group: SERVER,
    kind: 'integer',
    default: 100 * 1024,
    min: 1024,
    max: 50 * 1024 * 1024,
    meaning: 'largest JSON body; larger ones get 413',
  },
  JSON_COMPRESSION_MIN_BYTES: {
    group: SERVER,
    kind: 'integer',
    default: 1024,
    min: 0,
    max: 100 * 1024 * 1024,
    meaning: 'JSON answers (REST, GraphQL) this large or larger go out brotli- or gzip-compressed when the client accepts it; `0`: never',
  },
  CORS_ORIGINS: {
    group: SERVER,
    kind: 'text',
    accepts: 'origins separated by commas',
    default: { rule: 'empty: same origin only' },
    meaning:
      'origins (`https://shop.example`) separated by commas whose pages may call `/api` and `/graphql` from a browser (bearer tokens, no credentials mode)',
  },
  TRUST_PROXY: {
    group: SERVER,
    kind: 'text',
    accepts: 'a number, or addresses, subnets and names separated by commas',
    default: { rule: 'unset: no proxy' },
    meaning:
      'the proxies in front of the server: their number (`1`), or their addresses, subnets and `loopback`/`linklocal`/`uniquelocal` separated by commas; `true` is refused. Only then is `X-Forwarded-For` read for the client address (docs/operations.md)',
  },
  IDEMPOTENCY_KEY_TTL_HOURS: {
    group: SERVER,
    kind: 'integer',
    default: 24,
    min: 1,
    max: 24 * 365,
    meaning: 'an `Idempotency-Key` answers its first result for this long, then a sweep forgets it',
  },

  PAYMENT_METHODS: {
    group: PAYMENTS,
    kind: 'text',
    accepts: '`wallet`, `sandbox`, `stripe`, `alipay` separated by commas',
    default: {
      rule: '`wallet,sandbox` (`wallet` in production; `stripe` added when its keys are set, `alipay` when `ALIPAY_APP_ID` is)',
    },
    meaning:
      'the payment methods offered, separated by commas: `wallet` (the available balance), `sandbox` (a development gateway; refused with `NODE_ENV=production`), `stripe`, `alipay` (CNY only)',
  },
  PAYMENT_WINDOW_MINUTES: {
    group: PAYMENTS,
    kind: 'integer',
    default: 30,
    min: 1,
    max: 60 * 24 * 30,
    meaning: 'unpaid orders older than this are cancelled',
  },
  PAYMENT_QUERY_AFTER_SECONDS: {
    group: PAYMENTS,
    kind: 'integer',
    default: 180,
    min: 1,
    max: 86_400,
    meaning:
      'a gateway payment still pending this long is queried at its provider by the sweep (a lost notification); still pending after `PAYMENT_WINDOW_MINUTES`, it expires',
  },
  SANDBOX_PAYMENT_DELAY_MS: {
    group: PAYMENTS,
    kind: 'integer',
    default: 3_000,
    min: 0,
    max: 600_000,
    meaning: "how long the sandbox gateway's simulated customer takes before its signed notification",
  },
  STRIPE_SECRET_KEY: {
    group: PAYMENTS,
    kind: 'text',
    accepts: '`sk_...`',
    default: { rule: 'unset' },
    meaning: "Stripe's secret API key (`sk_...`); needed for `stripe`",
  },
  STRIPE_PUBLISHABLE_KEY: {
    group: PAYMENTS,
    kind: 'text',
    accepts: '`pk_...`',
    default: { rule: 'unset' },
    meaning: "Stripe's publishable key (`pk_...`), handed to Stripe.js in the storefront with each payment's client secret; needed for `stripe`",
  },
  STRIPE_WEBHOOK_SECRET: {
    group: PAYMENTS,
    kind: 'text',
    accepts: '`whsec_...`',
    default: { rule: 'unset' },
    meaning: 'the signing secret of the Stripe webhook endpoint pointed at `/api/payments/notifications/stripe` (`whsec_...`)',
  },
  STRIPE_API_URL: {
    group: PAYMENTS,
    kind: 'text',
    accepts: 'an origin',
    default: { rule: 'unset: Stripe itself' },
    meaning: "another address for Stripe's API (`http://127.0.0.1:12111`): the tests' stand-in",
  },
  ALIPAY_APP_ID: {
    group: PAYMENTS,
    kind: 'text',
    accepts: '16 digits',
    default: { rule: 'unset' },
    meaning: "the Alipay app's 16-digit id; needed for `alipay`",
  },
  ALIPAY_PRIVATE_KEY: {
    group: PAYMENTS,
    kind: 'text',
    accepts: 'an RSA private key',
    default: { rule: 'unset' },
    meaning:
      "the app's RSA2 private key (PEM PKCS#1 or PKCS#8, or the bare base64 Alipay's key tool writes; `\\n` may stand for line breaks); its public key is the one uploaded to Alipay",
  },
  ALIPAY_PUBLIC_KEY: {
    group: PAYMENTS,
    kind: 'text',
    accepts: 'an RSA public key',
    default: { rule: 'unset' },
    meaning: "Alipay's public key for the app (public-key mode; not the app's own): notifications and API answers are checked against it",
  },
  ALIPAY_GATEWAY_URL: {
    group: PAYMENTS,
    kind: 'text',
    accepts: 'an address ending in `gateway.do`',
    default: { rule: '`https://openapi.alipay.com/gateway.do`' },
    meaning: "Alipay's gateway: `https://openapi-sandbox.dl.alipaydev.com/gateway.do` for Alipay's sandbox, the stand-in's address in the tests",
  },
  PUBLIC_URL: {
    group: PAYMENTS,
    kind: 'text',
    accepts: 'an origin',
    default: { rule: 'unset' },
    meaning:
      "this server's origin as customers and providers reach it (`https://mall.example`); needed for `alipay` and for emails (their links): its `notify_url` is `<PUBLIC_URL>/api/payments/notifications/alipay`, its `return_url` the storefront's `<PUBLIC_URL>/payments/<id>`",
  },

  AFTER_SALE_WINDOW_DAYS: {
    group: ORDERS,
    kind: 'integer',
    default: 7,
    min: 0,
    max: 365,
    meaning: "a delivered order completes this many days after delivery (no refund open): returns close and the shop's earnings are released",
  },
  SWEEP_INTERVAL_SECONDS: {
    group: ORDERS,
    kind: 'integer',
    default: 30,
    min: 0,
    max: 3600,
    meaning: 'how often background sweeps run (payment window, order completion, group expiry, retention of the sales-change log); `0` turns them off',
  },
  STOCK_LOW_THRESHOLD: {
    group: ORDERS,
    kind: 'integer',
    default: 5,
    min: 0,
    max: 1_000_000,
    meaning: "a sale that takes a SKU's stock below this raises a `stock.low` event",
  },
  CHECKOUT_WRITER: {
    group: ORDERS,
    kind: 'choice',
    values: ['combined', 'transactional'],
    default: 'combined',
    meaning:
      'how checkouts write their orders: `combined` (one statement, shared by concurrent checkouts; measured faster) or `transactional` (one transaction, one guarded write per step)',
  },

  LISTING_TOTALS_CACHE_FILTERS: {
    group: MEMORY,
    kind: 'integer',
    default: 10_000,
    min: 1,
    max: 10_000_000,
    meaning:
      'listing totals each process remembers, one per filter (category, brand, shop, price); past it the memory starts again (docs/operations.md, "Memory")',
  },
  FACETS_CACHE_FILTERS: {
    group: MEMORY,
    kind: 'integer',
    default: 2_000,
    min: 1,
    max: 1_000_000,
    meaning: 'search facet counts each process remembers, one set per filter',
  },
  RANKING_CACHE_PRODUCTS: {
    group: MEMORY,
    kind: 'integer',
    default: 4_000_000,
    min: 1,
    max: 1_000_000_000,
    meaning: "products held by each process's remembered sales and keyword rankings (8 to 16 bytes each), least recently used dropped first",
  },
  SIGN_IN_COUNTS_MAX_KEYS: {
    group: MEMORY,
    kind: 'integer',
    default: 200_000,
    min: 1,
    max: 100_000_000,
    meaning: 'sign-in attempt counters a process copies from the others (its own are always counted)',
  },

  GRAPHIQL: {
    group: GRAPHQL,
    kind: 'flag',
    default: { rule: 'on in development' },
    meaning: 'serve GraphiQL (bundled, no CDN) at `GET /graphql` to a browser',
  },
  GRAPHQL_INTROSPECTION: {
    group: GRAPHQL,
    kind: 'flag',
    default: { rule: 'on outside production' },
    meaning: 'serve GraphQL introspection (HTTP and websocket)',
  },
  GRAPHQL_MAX_DEPTH: {
    group: GRAPHQL,
    kind: 'integer',
    default: 10,
    min: 2,
    max: 100,
    meaning: 'deepest field nesting of an operation (`{ me { id } }` is 2)',
  },
  GRAPHQL_MAX_COST: {
    group: GRAPHQL,
    kind: 'integer',
    default: 5000,
    min: 10,
    max: 10_000_000,
    meaning: 'cost budget of an operation (docs/api.md, "GraphQL limits")',
  },
  GRAPHQL_MAX_ALIASES: {
    group: GRAPHQL,
    kind: 'integer',
    default: 15,
    min: 0,
    max: 1000,
    meaning: 'aliases per operation',
  },
  GRAPHQL_MAX_TOKENS: {
    group: GRAPHQL,
    kind: 'integer',
    default: 2000,
    min: 100,
    max: 1_000_000,
    meaning: 'lexical tokens per document',
  },
  GRAPHQL_EXECUTOR: {
    group: GRAPHQL,
    kind: 'choice',
    values: ['compiled', 'standard'],
    default: 'compiled',
    meaning:
      "how HTTP GraphQL operations run: `compiled` (an operation a client repeats runs as a function compiled for its document; measured cheaper) or `standard` (graphql-js's executor)",
  },
  GRAPHQL_COMPILE_AFTER: {
    group: GRAPHQL,
    kind: 'integer',
    default: 2,
    min: 1,
    max: 1000,
    meaning: 'with `compiled`: how many times a document runs before it is compiled (1: at once)',
  },

  TOKEN_TTL_HOURS: {
    group: SIGN_IN,
    kind: 'integer',
    default: 24 * 7,
    min: 1,
    max: 24 * 365,
    meaning: 'lifetime of a bearer token',
  },
  DEVICE_TOKEN_SECRET: {
    group: SIGN_IN,
    kind: 'text',
    accepts: '32 or more characters',
    default: {
      rule: 'required in production; elsewhere made up at each start',
    },
    meaning:
      "key (32 characters or more) that signs the device tokens sign-ins hand out, and the sandbox gateway's notifications; the same for every server process",
  },
  DEVICE_TOKEN_TTL_DAYS: {
    group: SIGN_IN,
    kind: 'integer',
    default: 180,
    min: 1,
    max: 3650,
    meaning: 'how long a device token marks its browser as one that signed in to the account before',
  },
  AUTH_THROTTLE_WINDOW_SECONDS: {
    group: SIGN_IN,
    kind: 'integer',
    default: 900,
    min: 1,
    max: 86_400,
    meaning: 'the window of the sign-in and registration counts below',
  },
  LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: {
    group: SIGN_IN,
    kind: 'integer',
    default: 10,
    min: 1,
    max: 1_000_000,
    meaning:
      "failed logins on one account from one address (without a device token) before that address gets 429 for that account; as many from all addresses together put the account under attack (docs/operations.md). A device token's own failures count per device",
  },
  LOGIN_MAX_ATTEMPTS_PER_IP: {
    group: SIGN_IN,
    kind: 'integer',
    default: 100,
    min: 1,
    max: 1_000_000,
    meaning: 'failed logins (without a device token) from one client address, whatever the account',
  },
  REGISTER_MAX_PER_IP: {
    group: SIGN_IN,
    kind: 'integer',
    default: 20,
    min: 1,
    max: 1_000_000,
    meaning: 'registrations (tried) from one client address in the window',
  },
  REGISTER_MAX_PER_EMAIL: {
    group: SIGN_IN,
    kind: 'integer',
    default: 10,
    min: 1,
    max: 1_000_000,
    meaning: 'registrations (tried) of one email in the window',
  },
  PASSWORD_HASH_CONCURRENCY: {
    group: SIGN_IN,
    kind: 'integer',
    default: { rule: 'half the cores, at least 1' },
    min: 1,
    max: 64,
    meaning:
      "password hashes (scrypt, ~50 ms of CPU each) computed at once per process; the rest wait (at most 4 run at once in any case: libuv's thread pool)",
  },
  PASSWORD_HASH_QUEUE: {
    group: SIGN_IN,
    kind: 'integer',
    default: 32,
    min: 0,
    max: 10_000,
    meaning: 'hashes that may wait per lane (device tokens, clean records, the rest); beyond that a login or registration gets 503 `SERVICE_BUSY`',
  },
  SUBSCRIPTION_RECHECK_SECONDS: {
    group: SIGN_IN,
    kind: 'integer',
    default: 5,
    min: 1,
    max: 3600,
    meaning: 'how often open websocket connections have their token checked again: a logout or an expired token closes them (4401)',
  },
  MAX_SUBSCRIPTIONS_PER_SOCKET: {
    group: SIGN_IN,
    kind: 'integer',
    default: 20,
    min: 1,
    max: 1000,
    meaning: 'operations (subscriptions, mostly) one websocket may have running at once',
  },
  MAX_SOCKETS_PER_USER: {
    group: SIGN_IN,
    kind: 'integer',
    default: 5,
    min: 1,
    max: 1000,
    meaning: 'websockets one user may have open at once in one server process; one more is closed with 4429',
  },
  MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: {
    group: SIGN_IN,
    kind: 'integer',
    default: 10,
    min: 1,
    max: 100_000,
    meaning: 'websockets not yet signed in (before `connection_init` is accepted) one client address may have open at once per process',
  },

  METRICS: {
    group: OBSERVE,
    kind: 'choice',
    values: ['off', 'public', 'token'],
    default: {
      rule: '`public`; in production `token` when `METRICS_TOKEN` is set, else `off`',
    },
    meaning:
      'who may read `GET /metrics` (Prometheus text format, docs/operations.md "Metrics"): `off` (404), `public` (anyone reaching the port: keep the port private), `token` (`Authorization: Bearer <METRICS_TOKEN>`, else 401)',
  },
  METRICS_TOKEN: {
    group: OBSERVE,
    kind: 'text',
    accepts: '16 or more printable characters',
    default: { rule: 'unset' },
    meaning: "the scraper's bearer token (16 or more printable characters) for `METRICS=token`",
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    group: OBSERVE,
    kind: 'text',
    accepts: 'a URL',
    default: { rule: 'unset: tracing off (no OpenTelemetry SDK loaded)' },
    meaning:
      'an OTLP collector (`http://collector:4318`): OpenTelemetry traces of requests, statements, the outbox relay and webhook deliveries; the other standard `OTEL_*` variables apply (protocol, headers, `OTEL_SERVICE_NAME`, sampling: docs/operations.md "Traces")',
  },

  OUTBOX_POLL_MS: {
    group: EVENTS,
    kind: 'integer',
    default: 1000,
    min: 10,
    max: 60_000,
    meaning: "how often each process's event relay looks for events without being woken (NOTIFY wakes it at once)",
  },
  EVENT_RETENTION_SECONDS: {
    group: EVENTS,
    kind: 'integer',
    default: 7 * 86_400,
    min: 1,
    max: 365 * 86_400,
    meaning: 'events are kept this long (7 days by default) for `after` and `GET /api/events`, then pruned by the sweep',
  },
  WEBHOOK_DISPATCH: {
    group: EVENTS,
    kind: 'flag',
    default: true,
    meaning: 'this process sends webhook deliveries (`false`: it only serves)',
  },
  WEBHOOK_ALLOW_PRIVATE: {
    group: EVENTS,
    kind: 'flag',
    default: false,
    meaning: 'webhook URLs may resolve to private, loopback or link-local addresses (tests and development only)',
  },
  WEBHOOK_MAX_CONCURRENCY: {
    group: EVENTS,
    kind: 'integer',
    default: 4,
    min: 1,
    max: 100,
    meaning:
      'deliveries in flight per endpoint, across all processes (`1`: strictly in order, retries included; a receiver must answer fast, see docs/operations.md)',
  },
  WEBHOOK_TIMEOUT_MS: {
    group: EVENTS,
    kind: 'integer',
    default: 10_000,
    min: 100,
    max: 120_000,
    meaning: "one delivery attempt's deadline",
  },
  WEBHOOK_MAX_RESPONSE_BYTES: {
    group: EVENTS,
    kind: 'integer',
    default: 64 * 1024,
    min: 1024,
    max: 10 * 1024 * 1024,
    meaning: "at most this much of an endpoint's answer is read",
  },
  WEBHOOK_RETRY_DELAYS_SECONDS: {
    group: EVENTS,
    kind: 'text',
    accepts: 'up to 20 numbers from 0 to 604800, separated by commas',
    default: { rule: '`5,300,1800,7200,18000,36000,36000`' },
    meaning: 'waits between attempts in seconds, up to 20 separated by commas, each at most 604800 (±20% jitter); after the last the delivery fails',
  },
  WEBHOOK_DISABLE_AFTER_SECONDS: {
    group: EVENTS,
    kind: 'integer',
    default: 86_400,
    min: 1,
    max: 30 * 86_400,
    meaning: 'an endpoint failing continuously this long is disabled (with a `webhook.endpoint_disabled` event)',
  },
  WEBHOOK_SECRET_OVERLAP_SECONDS: {
    group: EVENTS,
    kind: 'integer',
    default: 86_400,
    min: 0,
    max: 30 * 86_400,
    meaning: 'after a secret rotation the previous secret also signs this long',
  },

  SMTP_URL: {
    group: MAIL,
    kind: 'text',
    accepts: 'an `smtp://` or `smtps://` URL',
    default: { rule: 'unset: emails are written to the log, not sent' },
    meaning:
      'the mail server invitations are sent through (`smtps://user:password@mail.example:465`, or `smtp://...:587` with STARTTLS); needs `PUBLIC_URL` for the links in them',
  },
  MAIL_FROM: {
    group: MAIL,
    kind: 'text',
    accepts: 'an address, with a name if wanted',
    default: { rule: '`Mallfront <no-reply@localhost>`' },
    meaning: 'who the mall\'s emails come from (`Mallfront <no-reply@mall.example>`)',
  },
  MEDIA_STORE: {
    group: MEDIA,
    kind: 'choice',
    values: ['disk', 's3'],
    default: 'disk',
    meaning: 'where uploaded pictures and their thumbnails are kept: a directory of this host (`MEDIA_DIR`), or an S3-compatible bucket (`MEDIA_S3_*`), which every process of a cluster on several hosts needs',
  },
  MEDIA_DIR: {
    group: MEDIA,
    kind: 'text',
    accepts: 'a directory path',
    default: { rule: '`.data/media` under the working directory' },
    meaning: 'the directory `disk` keeps pictures in (made when missing)',
  },
  MEDIA_MAX_BYTES: {
    group: MEDIA,
    kind: 'integer',
    default: 10 * 1024 * 1024,
    min: 1024,
    max: 50 * 1024 * 1024,
    meaning: 'largest picture an upload may send; larger ones get 413',
  },
  MEDIA_S3_BUCKET: {
    group: MEDIA,
    kind: 'text',
    accepts: 'a bucket name',
    default: { rule: 'unset (needed with `MEDIA_STORE=s3`)' },
    meaning: 'the bucket `s3` keeps pictures in (objects under `media/`)',
  },
  MEDIA_S3_REGION: {
    group: MEDIA,
    kind: 'text',
    accepts: 'a region name',
    default: { rule: '`us-east-1`' },
    meaning: "the bucket's region (requests are signed for it)",
  },
  MEDIA_S3_ENDPOINT: {
    group: MEDIA,
    kind: 'text',
    accepts: 'an `http(s)://` URL',
    default: { rule: "unset: AWS's own endpoint for the region" },
    meaning: 'an S3-compatible service (MinIO, Ceph, R2...) at its own address; paths name the bucket (`/bucket/key`), as those services expect',
  },
  MEDIA_S3_ACCESS_KEY_ID: {
    group: MEDIA,
    kind: 'text',
    accepts: 'an access key id',
    default: { rule: "unset: the AWS SDK's own chain (environment, profile, instance role)" },
    meaning: 'the key `s3` signs its requests with (with `MEDIA_S3_SECRET_ACCESS_KEY`)',
  },
  MEDIA_S3_SECRET_ACCESS_KEY: {
    group: MEDIA,
    kind: 'text',
    accepts: 'a secret access key',
    default: { rule: 'unset' },
    meaning: "the secret of `MEDIA_S3_ACCESS_KEY_ID`",
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;
type NamesOf<Kind> = {
  [K in SettingName]: (typeof SETTINGS)[K] extends Kind ? K : never;
}[SettingName];
/** Integer settings whose default is a number (read without a fallback) or a rule (read with the worked-out value). */
export type FixedIntegerName = NamesOf<{ kind: 'integer'; default: number }>;
export type RuledIntegerName = NamesOf<{
  kind: 'integer';
  default: { rule: string };
}>;
export type ChoiceName = NamesOf<{ kind: 'choice' }>;
export type FlagName = NamesOf<{ kind: 'flag' }>;
/** The words a choice setting accepts. */
export type ChoiceOf<N extends ChoiceName> = (typeof SETTINGS)[N]['values'][number];

/** The environment as `loadConfig` sees it: only declared names can be read. */
export type SettingsEnv = { readonly [K in SettingName]?: string };
