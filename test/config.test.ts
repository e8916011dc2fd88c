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
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1']);
    for (const bad of ['yes please', '10.0.0.0/33', '300.1.1.1', 'loopback,']) expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });

  it('has sane sign-in limits and hashing caps by default, each settable', () => {
    const config = loadConfig({});
    expect(config.authThrottle).toEqual({ windowSeconds: 900, loginPerAccount: 10, loginPerIp: 100, registerPerIp: 20, registerPerEmail: 10 });
    expect(config.passwordHashing).toEqual({ concurrency: Math.max(1, Math.floor(os.availableParallelism() / 2)), queueLimit: 32 });
    expect(config.maxSubscriptionsPerSocket).toBe(20);
    expect(loadConfig({ LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '5' }).authThrottle.loginPerAccount).toBe(5);
    expect(() => loadConfig({ LOGIN_MAX_ATTEMPTS_PER_IP: '0' })).toThrow(/LOGIN_MAX_ATTEMPTS_PER_IP/);
    expect(() => loadConfig({ PASSWORD_HASH_CONCURRENCY: 'lots' })).toThrow(/PASSWORD_HASH_CONCURRENCY/);
    expect(() => loadConfig({ MAX_SUBSCRIPTIONS_PER_SOCKET: '0' })).toThrow(/MAX_SUBSCRIPTIONS_PER_SOCKET/);
  });

  it('serves GraphiQL in development (NODE_ENV unset included) unless GRAPHIQL says otherwise', () => {
    expect(loadConfig({}).graphiql).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'true' }).graphiql).toBe(true);
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
