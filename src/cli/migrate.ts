import 'reflect-metadata';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { resolveDatabase } from '../db/database.js';
import { openOrm, migrate } from '../db/orm.js';

/** `npm run migrate`: applies pending migrations and exits. */
const config = loadConfig();
const log = createLogger(config);
const database = await resolveDatabase(config, log);
const orm = await openOrm({ clientUrl: database.directUrl });
try {
  const applied = await migrate(orm);
  log.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
} finally {
  await orm.close();
  await database.stop();
}
