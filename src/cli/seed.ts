import 'reflect-metadata';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { resolveDatabase } from '../db/database.js';
import { openOrm, migrate } from '../db/orm.js';
import { seedDemoData } from '../seed/demo-seed.js';

/** `npm run seed`: migrates, then loads the demo data unless it is already there. */
const config = loadConfig();
const log = createLogger(config);
const database = await resolveDatabase(config, log);
const orm = await openOrm({ clientUrl: database.directUrl });
try {
  await migrate(orm);
  log.info({ seed: await seedDemoData(orm, config.nodeEnv) }, 'demo data');
} catch (error) {
  log.error({ err: error }, 'seed failed');
  process.exitCode = 1;
} finally {
  await orm.close();
  await database.stop();
}
