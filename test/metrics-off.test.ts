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

it("gives the backlog statement's top endpoints as many rows as the metric has series for them", async () => {
  const { WEBHOOK_BACKLOG_TOP } = await import('../src/metrics.js');
  const { BACKLOG_SQL } = await import('../src/services/events/outbox.repository.js');
  expect(BACKLOG_SQL).toContain(`order by pending desc, endpoint_id limit ${WEBHOOK_BACKLOG_TOP})`);
});
