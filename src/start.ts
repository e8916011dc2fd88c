import 'reflect-metadata';
import cluster from 'node:cluster';
import { loadConfig, ConfigError, type AppConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { resolveDatabase, type ServedDatabase } from './db/database.js';
import { openOrm, migrate, servingPool, checkSessionSettings, sessionSettings } from './db/orm.js';
import { seedDemoData } from './seed/demo-seed.js';
import { mediaStoreFor } from './services/media/media-store-choice.js';
import { PostgresEventBus } from './services/events/postgres-event-bus.js';
import { ReplicaRouter } from './db/read-routing.js';
import { startApp } from './server/app.js';
import { serviceWiring } from './services/wiring.js';
import { offerWorkerMetrics, serveClusterMetrics } from './server/metrics-endpoint.js';
import { tracing } from './tracing.js';

/**
 * The server process after its entry (src/main.ts, which starts tracing first when it is on).
 * `npm start`: migrate, seed the demo data once (outside production), serve, and stop cleanly.
 * With CLUSTER_WORKERS > 1 the primary prepares the database and forks that many server processes
 * sharing the port (node:cluster); it forwards SIGTERM/SIGINT and stops the embedded database last.
 */
function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(78);
    }
    throw error;
  }
}

/** The spans still buffered go out before the process exits (nothing to do with tracing off). */
const flushTraces = () => (tracing ? tracing.shutdown().catch(() => undefined) : Promise.resolve());

function onSignals(handler: (signal: string) => Promise<void>) {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      handler(signal).then(
        () => flushTraces().then(() => process.exit(0)),
        () => flushTraces().then(() => process.exit(1)),
      );
    });
  }
}

/** Migrates and seeds; returns the database URL and how to stop the database. */
async function prepareDatabase(config: AppConfig, log: Logger) {
  const database = await resolveDatabase(config, log);
  // A direct session: the migration lock is a session's advisory lock, which a transaction pooler would leave held.
  const orm = await openOrm({ clientUrl: database.directUrl, poolSize: 2 });
  try {
    const applied = await migrate(orm);
    log.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
    if (config.nodeEnv !== 'production') log.info({ seed: await seedDemoData(orm, config.nodeEnv, mediaStoreFor(config.media.store)) }, 'demo data');
  } finally {
    await orm.close();
  }
  return database;
}

/**
 * One server process: its own pool, its own HTTP server, and its own events connection (LISTEN/NOTIFY),
 * so a subscriber of any process receives the events caused through any other.
 */
async function serve(config: AppConfig, log: Logger, database: Pick<ServedDatabase, 'url' | 'directUrl'>) {
  const orm = await openOrm({ clientUrl: database.url, ...servingPool(config) });
  if (config.databasePoolMode === 'transaction') {
    await checkSessionSettings(orm, sessionSettings(servingPool(config))).catch(async (error: unknown) => {
      await orm.close();
      throw error;
    });
  }
  const events = new PostgresEventBus({ connectionString: database.directUrl, log: log.child({ component: 'events' }), pollMs: config.outbox.pollMs });
  await events.start();
  const reads = config.databaseReadUrls.length > 0
    ? new ReplicaRouter({ primary: orm, urls: config.databaseReadUrls, pool: servingPool(config), maxLagMs: config.readReplicaMaxLagMs, log: log.child({ component: 'read-replicas' }) })
    : undefined;
  await reads?.start();
  const app = await startApp({ config, orm, log, events, wiring: serviceWiring(config), reads }, config.port);
  if (tracing) log.info({ otlpEndpoint: config.otlpEndpoint ?? process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT }, 'tracing on: OpenTelemetry spans are exported over OTLP');
  log.info({ port: app.port, pid: process.pid }, `Mallfront listening: http://localhost:${app.port}/graphql and http://localhost:${app.port}/api`);
  return async () => {
    await app.stop();
    await events.stop();
    await reads?.close();
    await orm.close();
  };
}

async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config);

  if (cluster.isWorker) {
    offerWorkerMetrics();
    const stop = await serve(config, log, { url: process.env.MALLFRONT_DATABASE_URL!, directUrl: process.env.MALLFRONT_DIRECT_URL! });
    onSignals(async () => {
      await stop();
    });
    return;
  }

  if (config.deviceTokens.generated) {
    log.warn(
      { setting: 'DEVICE_TOKEN_SECRET' },
      'DEVICE_TOKEN_SECRET is not set: device tokens are signed with a secret made up for this run, so the ones handed out before a restart are no longer honoured (required in production)',
    );
  }
  const database = await prepareDatabase(config, log);
  if (config.clusterWorkers === 1) {
    const stop = await serve(config, log, database);
    onSignals(async (signal) => {
      log.info({ signal }, 'shutting down: finishing requests in flight');
      await stop();
      await database.stop();
      log.info('stopped');
    });
    return;
  }

  // Every worker signs and checks device tokens with the same secret, the one made up here included.
  const workerEnv = { MALLFRONT_DATABASE_URL: database.url, MALLFRONT_DIRECT_URL: database.directUrl, DEVICE_TOKEN_SECRET: config.deviceTokens.secret };
  // One scrape of any worker answers every worker's metrics, added up here (metrics-endpoint.ts).
  if (config.metrics.exposure !== 'off') serveClusterMetrics();
  for (let i = 0; i < config.clusterWorkers; i++) cluster.fork(workerEnv);
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (!stopping) {
      log.error({ pid: worker.process.pid, code }, 'server process exited; starting another');
      cluster.fork(workerEnv);
    }
  });
  onSignals(async (signal) => {
    stopping = true;
    log.info({ signal, workers: config.clusterWorkers }, 'shutting down the server processes');
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
      w.once('exit', () => resolve());
      w.process.kill(signal as NodeJS.Signals);
    })));
    await database.stop();
    log.info('stopped');
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
