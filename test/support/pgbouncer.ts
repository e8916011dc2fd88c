import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './server-process.js';

/**
 * Debian's PgBouncer (`apt-get install pgbouncer`; .ci/run installs it), started by a test on a free
 * port of its own in front of one database, in transaction pooling. Started as root, it runs as the
 * `postgres` user (PgBouncer refuses root).
 */
export const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((candidate) => existsSync(candidate));

export function pgbouncerVersion(): string | undefined {
  if (!PGBOUNCER) return undefined;
  return /PgBouncer (\S+)/.exec(execFileSync(PGBOUNCER, ['--version']).toString())?.[1];
}

export interface RunningPgBouncer {
  /** The database through PgBouncer. */
  url: string;
  port: number;
  /** The server sessions PgBouncer holds to PostgreSQL, by backend pid (admin console `SHOW SERVERS`). */
  serverPids(): Promise<number[]>;
  /** Immediate shutdown (SIGTERM): every client connection is cut. */
  stop(): Promise<void>;
  /** Starts it again on the same port and configuration. */
  start(): Promise<void>;
  remove(): Promise<void>;
}

export async function startPgBouncer(options: {
  /** The database PgBouncer serves, on PostgreSQL at `server` (a URL naming no database, or any). */
  server: string;
  database: string;
  /** Server sessions per database/user pair: fewer than the clients, so clients share them. */
  poolSize: number;
  /** Run on every new server session (PgBouncer's `connect_query`). */
  connectQuery?: string;
}): Promise<RunningPgBouncer> {
  if (!PGBOUNCER) throw new Error('pgbouncer is not installed (apt-get install pgbouncer)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mallfront-pgbouncer-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) } : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const port = await freePort();
  const server = new URL(options.server);
  const user = decodeURIComponent(server.username || 'postgres');
  const connectQuery = options.connectQuery ? ` connect_query='${options.connectQuery.replaceAll("'", "''")}'` : '';
  writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${options.database} = host=${server.hostname} port=${server.port || 5432} dbname=${options.database} user=${user}${connectQuery}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize}`,
      'max_client_conn = 500',
      // pg sends none of these today; a driver that does should not be refused.
      'ignore_startup_parameters = extra_float_digits',
      'server_login_retry = 1',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  if (owner) for (const file of ['users.txt', 'pgbouncer.ini']) chownSync(path.join(dir, file), owner.uid, owner.gid);

  let child: ChildProcess | null = null;
  const adminUrl = `postgres://${user}@127.0.0.1:${port}/pgbouncer`;
  const start = async () => {
    child = spawn(PGBOUNCER!, [path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore', ...(owner ?? {}) });
    const until = Date.now() + 10_000;
    for (;;) {
      const admin = new pg.Client({ connectionString: adminUrl });
      try {
        await admin.connect();
        await admin.end();
        return;
      } catch (error) {
        await admin.end().catch(() => {});
        if (Date.now() > until || child.exitCode !== null) throw new Error(`pgbouncer did not start: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `postgres://${user}@127.0.0.1:${port}/${options.database}`,
    port,
    async serverPids() {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        // Without values pg sends the simple protocol, the only one the admin console speaks.
        const result = await admin.query<{ database: string; remote_pid: string }>('SHOW SERVERS');
        return result.rows.filter((row) => row.database === options.database).map((row) => Number(row.remote_pid));
      } finally {
        await admin.end();
      }
    },
    stop,
    start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
