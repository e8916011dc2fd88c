import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { startEmbeddedPostgres, type RunningDatabase } from './embedded-postgres.js';

/** DATABASE_URL when set; otherwise an embedded PostgreSQL with its data under `.data/`. */
export async function resolveDatabase(config: AppConfig, log: Logger): Promise<RunningDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  return startEmbeddedPostgres(config.embeddedPgPort, log);
}
