import { readFile } from 'node:fs/promises';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../src/db/orm.js';
import { sqlSnapshot } from '../src/db/sql-snapshot.js';
import '../src/services/repositories.js';

/**
 * The committed SQL of the hot statements (`sql/statements.sql`) is the code's: a change to a hot
 * statement shows in review as a SQL diff. Rebuild it with `npm run sql:print`. Compiling every
 * example shape here also holds each builder to the rules of prepared queries (every returned column
 * named, every value a stand-in or a literal).
 */
it('sql/statements.sql is what the repositories compile to', async () => {
  const orm = new MikroORM(ormConfig({ clientUrl: 'postgres://unused@127.0.0.1/unused', poolSize: 1 }));
  try {
    expect(sqlSnapshot(orm.em.fork())).toBe(await readFile('sql/statements.sql', 'utf8'));
  } finally {
    await orm.close();
  }
});
