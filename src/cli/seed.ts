import 'reflect-metadata';
import { seedDemoData } from '../seed/demo-seed.js';
import { mediaStoreFor } from '../services/media/media-store-choice.js';
import { withMigratedDatabase } from './migrated-database.js';

/** `npm run seed`: migrates, then loads the demo data unless it is already there. */
await withMigratedDatabase(
  async (orm, { config, log }) => log.info({ seed: await seedDemoData(orm, config.nodeEnv, mediaStoreFor(config.media.store)) }, 'demo data'),
  (error, log) => log.error({ err: error }, 'seed failed'),
);
