import { randomBytes } from 'node:crypto';
import { openOrm, migrate, type MikroORM } from '../src/db/orm.js';
import { adminQuery, databaseUrl, PREFIX } from './support/databases.js';

/** Two server processes starting at once on a new database (say, two replicas of a first deploy). */
describe('migrations', () => {
  const dbName = `${PREFIX}_mig_${randomBytes(4).toString('hex')}`;
  const orms: MikroORM[] = [];
  beforeAll(() => adminQuery(`create database ${dbName}`));
  afterAll(async () => {
    await Promise.all(orms.map((o) => o.close()));
    await adminQuery(`drop database if exists ${dbName} with (force)`);
  });

  it('take turns when two processes migrate one database at once: one applies them, the other finds none', async () => {
    for (let i = 0; i < 2; i++) orms.push(await openOrm({ clientUrl: databaseUrl(dbName), poolSize: 2 }));
    const [first, second] = await Promise.all(orms.map((o) => migrate(o)));
    const applied = [first, second].sort((x, y) => y.length - x.length);
    expect(applied[0].length).toBeGreaterThan(0);
    expect(applied[1]).toEqual([]);
  });
});
