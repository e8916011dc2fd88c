import 'reflect-metadata';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { openOrm, migrate } from '../../src/db/orm.js';
import { migrationsList } from '../../migrations/index.js';
import { databaseUrl, SERVER_URL, TEMPLATE_DB } from './databases.js';

/** Identifies the migrations' code: a template built from other migrations is rebuilt. */
const fingerprint = createHash('sha256')
  .update(migrationsList.map((m) => `${m.name}\n${m.class.toString()}`).join('\n'))
  .digest('hex')
  .slice(0, 32);

let ready: Promise<void> | undefined;

/**
 * One migrated template database, shared by every test file (each clones it with CREATE DATABASE ...
 * TEMPLATE, which takes milliseconds). Built by the first worker that needs it, under an advisory
 * lock, and rebuilt only when the migrations change.
 */
export function ensureTemplate(): Promise<void> {
  ready ??= build();
  return ready;
}

async function build(): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(771002)');
    const current = await admin.query(
      `select shobj_description(oid, 'pg_database') as fingerprint from pg_database where datname = $1`,
      [TEMPLATE_DB],
    );
    if (current.rows[0]?.fingerprint === fingerprint) return;
    await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await admin.query(`create database ${TEMPLATE_DB}`);
    const orm = await openOrm({ clientUrl: databaseUrl(TEMPLATE_DB), poolSize: 2 });
    try {
      await migrate(orm);
    } finally {
      await orm.close();
    }
    await admin.query(`comment on database ${TEMPLATE_DB} is '${fingerprint}'`);
  } finally {
    await admin.query('select pg_advisory_unlock(771002)').catch(() => {});
    await admin.end();
  }
}
