import type { MikroORM } from '../db/orm.js';
import { loadConfig, type AppConfig } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { resolveDatabase } from '../db/database.js';
import { openOrm, migrate } from '../db/orm.js';

/**
 * A console command's frame: the configured database (or the embedded one), migrated, handed to
 * `work`; closed afterwards, and the process exits 1 when `work` threw (after `onError` said why).
 * The exit code is set by hand at the end: a library's exit handler resets `process.exitCode` (seen:
 * a refused command exited 0).
 */
export async function withMigratedDatabase(
  work: (orm: MikroORM, context: { config: AppConfig; log: Logger }) => Promise<void>,
  onError: (error: unknown, log: Logger) => void,
): Promise<never> {
  const config = loadConfig();
  const log = createLogger(config);
  const database = await resolveDatabase(config, log);
  const orm = await openOrm({ clientUrl: database.directUrl });
  let failed = false;
  try {
    await migrate(orm);
    await work(orm, { config, log });
  } catch (error) {
    onError(error, log);
    failed = true;
  } finally {
    await orm.close();
    await database.stop();
  }
  process.exit(failed ? 1 : 0);
}
