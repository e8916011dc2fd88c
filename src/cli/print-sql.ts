import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../db/orm.js';
import { sqlSnapshot } from '../db/sql-snapshot.js';
import '../services/repositories.js';

/** `npm run sql:print`: rewrites the committed sql/statements.sql from the repositories (no database needed). */
// Built without connecting: compiling a statement needs only the entities' metadata.
const orm = new MikroORM(ormConfig({ clientUrl: 'postgres://unused@127.0.0.1/unused', poolSize: 1 }));
await mkdir('sql', { recursive: true });
await writeFile('sql/statements.sql', sqlSnapshot(orm.em.fork()));
await orm.close();
console.log('sql/statements.sql written');
