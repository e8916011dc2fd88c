import 'reflect-metadata';
import { loadConfig, ConfigError } from './config.js';
import { createLogger } from './logger.js';
import { resolveDatabase } from './db/database.js';
import { openOrm, migrate } from './db/orm.js';
import { seedDemoData } from './seed/demo-seed.js';
import { PostgresEventBus } from './events/postgres-event-bus.js';
import { startApp } from './server/app.js';

/** `npm start`: migrate, seed the demo data once (outside production), listen for events, serve, and stop cleanly. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(78);
    }
    throw error;
  }
  const log = createLogger(config);
  const database = await resolveDatabase(config, log);
  const orm = await openOrm({ clientUrl: database.url, poolSize: config.dbPoolSize });
  const applied = await migrate(orm);
  log.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
  if (config.nodeEnv !== 'production') log.info({ seed: await seedDemoData(orm, config.nodeEnv) }, 'demo data');

  // Events cross processes through LISTEN/NOTIFY on one dedicated connection of this process.
  const events = new PostgresEventBus({ connectionString: database.url, log: log.child({ component: 'events' }) });
  await events.start();
  const app = await startApp({ config, orm, log, events }, config.port);
  log.info({ port: app.port }, `Mallfront listening: http://localhost:${app.port}/graphql and http://localhost:${app.port}/api`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing requests in flight');
    try {
      await app.stop();
      log.info('http stopped');
      await events.stop();
      log.info('events connection closed');
      await orm.close();
      log.info('database pool closed');
      await database.stop();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
