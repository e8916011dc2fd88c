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
});
