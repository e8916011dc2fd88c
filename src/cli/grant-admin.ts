import 'reflect-metadata';
import { AppError } from '../errors.js';
import { grantAdmin } from '../services/platform/platform-staff.service.js';
import { withMigratedDatabase } from './migrated-database.js';

/**
 * `npm run grant-admin -- <email>`: makes a signed-up account a platform admin, so a mall started
 * without the demo data (NODE_ENV=production) gets its first admin; that admin invites the rest of
 * the staff from the console. Exits 1 with the reason when it cannot.
 */
const email = process.argv[2];
if (!email) {
  console.error('usage: npm run grant-admin -- <email of an account that has signed up>');
  process.exit(2);
}
await withMigratedDatabase(
  async (orm, { log }) => {
    const grant = await grantAdmin(orm.em.fork(), email);
    log.warn({ userId: grant.userId, outcome: grant.outcome }, grant.outcome === 'granted' ? `${email} is now a platform admin` : `${email} was already a platform admin`);
  },
  (error, log) => {
    if (error instanceof AppError) console.error(`${email}: ${error.message}`);
    else log.error({ err: error }, 'grant-admin failed');
  },
);
