import { vi } from 'vitest';

/**
 * METRICS=off costs nothing per query (issue 45): until a server of the process serves metrics
 * (`measureProcess`, called by the app when METRICS is not off), the database layer observes no
 * connection wait. The modules are loaded afresh here: the suite's other files share this worker's
 * modules, and their apps serve metrics.
 */
it('observes no connection wait until metrics are served, then every one', async () => {
  vi.resetModules();
  const metrics = await import('../src/metrics.js');
  const { acquireWithin } = await import('../src/db/write-slots.js');
  const observed = async () => (await metrics.dbAcquireDuration.get()).values.find((v) => v.metricName === 'mallfront_db_pool_acquire_seconds_count')?.value ?? 0;
  const acquire = () => acquireWithin(null, () => Promise.resolve('connection'), () => undefined);

  expect(metrics.measuring).toBe(false);
  for (let i = 0; i < 3; i++) await acquire();
  expect(await observed()).toBe(0);

  metrics.measureProcess();
  expect(metrics.measuring).toBe(true);
  for (let i = 0; i < 3; i++) await acquire();
  expect(await observed()).toBe(3);
});
