import os from 'node:os';
import { loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('sizes the database pool at about 2 x cores + 1 for the whole server, shared by its processes', () => {
    const total = 2 * os.availableParallelism() + 1;
    expect(loadConfig({}).dbPoolSize).toBe(total);
    expect(loadConfig({ CLUSTER_WORKERS: '2' }).dbPoolSize).toBe(Math.max(2, Math.ceil(total / 2)));
    expect(loadConfig({ CLUSTER_WORKERS: '64' }).dbPoolSize).toBe(2);
    expect(loadConfig({ CLUSTER_WORKERS: '2', DB_POOL_SIZE: '7' }).dbPoolSize).toBe(7);
  });

  it('refuses a pool size or worker count out of range at start', () => {
    expect(() => loadConfig({ DB_POOL_SIZE: '0' })).toThrow(/DB_POOL_SIZE/);
    expect(() => loadConfig({ CLUSTER_WORKERS: 'many' })).toThrow(/CLUSTER_WORKERS/);
  });

  it('checks open websocket connections every 5 seconds unless told otherwise', () => {
    expect(loadConfig({}).subscriptionRecheckSeconds).toBe(5);
    expect(loadConfig({ SUBSCRIPTION_RECHECK_SECONDS: '30' }).subscriptionRecheckSeconds).toBe(30);
    expect(() => loadConfig({ SUBSCRIPTION_RECHECK_SECONDS: '0' })).toThrow(/SUBSCRIPTION_RECHECK_SECONDS/);
  });

  it('trusts no proxy unless TRUST_PROXY says which, and refuses what Express could not use', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1']);
    for (const bad of ['yes please', '10.0.0.0/33', '300.1.1.1', 'loopback,', '33']) expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });

  it('refuses TRUST_PROXY=true at start, saying what to give instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true would believe the X-Forwarded-For of any client.*number of proxies.*TRUST_PROXY=1.*addresses or subnets/);
  });

  it('signs device tokens with DEVICE_TOKEN_SECRET, required in production and made up once per process elsewhere', () => {
    const secret = 'a'.repeat(40);
    expect(loadConfig({ DEVICE_TOKEN_SECRET: secret }).deviceTokens).toEqual({ secret, generated: false, ttlDays: 180 });
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/DEVICE_TOKEN_SECRET is required in production/);
    expect(loadConfig({ NODE_ENV: 'production', DEVICE_TOKEN_SECRET: secret }).deviceTokens.generated).toBe(false);
    expect(() => loadConfig({ DEVICE_TOKEN_SECRET: 'short' })).toThrow(/DEVICE_TOKEN_SECRET must be at least 32 characters/);
    const made = loadConfig({}).deviceTokens;
    expect(made.generated).toBe(true);
    expect(made.secret.length).toBeGreaterThanOrEqual(32);
    // One per process: every app of this process (and every worker the primary forks) signs alike.
    expect(loadConfig({ NODE_ENV: 'test' }).deviceTokens.secret).toBe(made.secret);
    expect(loadConfig({ DEVICE_TOKEN_TTL_DAYS: '30' }).deviceTokens.ttlDays).toBe(30);
  });

  it('needs a direct session for LISTEN behind a transaction pooler, and turns named prepared statements off there unless told', () => {
    const url = 'postgres://app@pgbouncer:6432/mallfront';
    const direct = 'postgres://app@primary:5432/mallfront';
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'transaction' })).toThrow(/DATABASE_POOL_MODE=transaction needs DATABASE_URL .* and DATABASE_LISTEN_URL/);
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'statement' })).toThrow(/DATABASE_POOL_MODE must be one of session, transaction/);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_LISTEN_URL: 'mysql://x' })).toThrow(/DATABASE_LISTEN_URL must start with postgres:\/\//);
    expect(loadConfig({ DATABASE_URL: url })).toMatchObject({ databasePoolMode: 'session', dbPreparedStatements: true, databaseListenUrl: undefined });
    expect(loadConfig({ DATABASE_URL: url, DATABASE_LISTEN_URL: direct, DATABASE_POOL_MODE: 'transaction' })).toMatchObject({
      databasePoolMode: 'transaction',
      dbPreparedStatements: false,
      databaseListenUrl: direct,
    });
    expect(loadConfig({ DATABASE_URL: url, DATABASE_LISTEN_URL: direct, DATABASE_POOL_MODE: 'transaction', DATABASE_PREPARED_STATEMENTS: 'true' }).dbPreparedStatements).toBe(true);
  });

  it('reads replicas from DATABASE_READ_URLS, and keeps a customer on the primary longer than any lag a replica is used with', () => {
    const url = 'postgres://app@primary:5432/mallfront';
    const replicas = 'postgres://app@replica-1:5432/mallfront, postgres://app@replica-2:5432/mallfront';
    expect(loadConfig({ DATABASE_URL: url, DATABASE_READ_URLS: replicas })).toMatchObject({
      databaseReadUrls: ['postgres://app@replica-1:5432/mallfront', 'postgres://app@replica-2:5432/mallfront'],
      readReplicaMaxLagMs: 1_000,
      readYourWritesMs: 5_000,
    });
    expect(loadConfig({ DATABASE_URL: url }).databaseReadUrls).toEqual([]);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_READ_URLS: 'replica-1:5432' })).toThrow(/DATABASE_READ_URLS must/);
    expect(() => loadConfig({ DATABASE_READ_URLS: 'postgres://app@replica-1:5432/mallfront' })).toThrow(/DATABASE_READ_URLS needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_READ_URLS: replicas, READ_REPLICA_MAX_LAG_MS: '5000', READ_YOUR_WRITES_MS: '5000' })).toThrow(
      /READ_YOUR_WRITES_MS must be above READ_REPLICA_MAX_LAG_MS \(5000\), got 5000/,
    );
  });

  it('keeps the lock timeout below the statement timeout', () => {
    expect(loadConfig({}).dbLockTimeoutMs).toBe(2000);
    expect(loadConfig({ DB_LOCK_TIMEOUT_MS: '500' }).dbLockTimeoutMs).toBe(500);
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '0', DB_LOCK_TIMEOUT_MS: '0' }).dbLockTimeoutMs).toBe(0);
    expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: '30000' })).toThrow(/DB_LOCK_TIMEOUT_MS must be above 0 and below DB_STATEMENT_TIMEOUT_MS/);
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: '1000', DB_LOCK_TIMEOUT_MS: '1500' })).toThrow(/DB_LOCK_TIMEOUT_MS/);
  });

  it('has sane sign-in limits and hashing caps by default, each settable', () => {
    const config = loadConfig({});
    expect(config.authThrottle).toEqual({
      windowSeconds: 900, loginPerAccount: 10, loginPerIp: 100, registerPerIp: 20, registerPerEmail: 10, untrustedMaxDelayMs: 3000, syncIntervalMs: 500, refusalHoldMs: 1000,
    });
    expect(config.passwordHashing).toEqual({ concurrency: Math.max(1, Math.floor(os.availableParallelism() / 2)), queueLimit: 32 });
    expect(config.maxSubscriptionsPerSocket).toBe(20);
    expect(config.maxSocketsPerUser).toBe(5);
    expect(config.maxAnonymousSocketsPerAddress).toBe(10);
    expect(loadConfig({ LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '5' }).authThrottle.loginPerAccount).toBe(5);
    expect(() => loadConfig({ LOGIN_MAX_ATTEMPTS_PER_IP: '0' })).toThrow(/LOGIN_MAX_ATTEMPTS_PER_IP/);
    expect(() => loadConfig({ PASSWORD_HASH_CONCURRENCY: 'lots' })).toThrow(/PASSWORD_HASH_CONCURRENCY/);
    expect(() => loadConfig({ MAX_SUBSCRIPTIONS_PER_SOCKET: '0' })).toThrow(/MAX_SUBSCRIPTIONS_PER_SOCKET/);
  });

  it('serves GraphiQL in development (NODE_ENV unset included) unless GRAPHIQL says otherwise', () => {
    expect(loadConfig({}).graphiql).toBe(true);
    const secret = { DEVICE_TOKEN_SECRET: 's'.repeat(32) };
    expect(loadConfig({ NODE_ENV: 'production', ...secret }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'true', ...secret }).graphiql).toBe(true);
    expect(loadConfig({ GRAPHIQL: 'false' }).graphiql).toBe(false);
    expect(() => loadConfig({ GRAPHIQL: 'maybe' })).toThrow(/GRAPHIQL/);
  });

  it('allows no other origin by default, and takes only exact origins in CORS_ORIGINS', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://shop.example, http://localhost:5173' }).corsOrigins).toEqual(['https://shop.example', 'http://localhost:5173']);
    for (const bad of ['*', 'shop.example', 'https://shop.example/', 'https://shop.example/app', 'ftp://shop.example', 'https://a.example,']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
  });
});
