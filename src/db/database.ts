import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

export interface ServedDatabase {
  /** What the pools use: the primary, or the PgBouncer in front of it. */
  url: string;
  /**
   * A direct session to the primary, for what needs one session throughout: LISTEN (the events
   * connection, postgres-event-bus.ts), the migration lock and the seed. DATABASE_LISTEN_URL, else
   * `url`. Every session-bound connection takes its address from here.
   */
  directUrl: string;
  stop(): Promise<void>;
}

/** DATABASE_URL when set; otherwise an embedded PostgreSQL with its data under `.data/`. */
export async function resolveDatabase(config: AppConfig, log: Logger): Promise<ServedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, directUrl: config.databaseListenUrl ?? config.databaseUrl, stop: async () => {} };
  const embedded = await startEmbeddedPostgres(config.embeddedPgPort, log);
  return { ...embedded, directUrl: embedded.url };
}
