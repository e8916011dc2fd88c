import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openOrm, migrate } from '../../src/db/orm.js';
import { freePort } from './server-process.js';

/**
 * A PostgreSQL cluster of a test's own (initdb on a free port, in a temporary folder), so that the
 * test can stop, restart or freeze the database without touching anyone else's. Started as root, the
 * tools run as the `postgres` user (PostgreSQL refuses root).
 */
const asRoot = process.getuid?.() === 0;
const bin = (tool: string) => path.join(execFileSync('pg_config', ['--bindir']).toString().trim(), tool);

function pgTool(tool: string, args: string[]) {
  const command = asRoot ? (['runuser', ['-u', 'postgres', '--', bin(tool), ...args]] as const) : ([bin(tool), args] as const);
  execFileSync(command[0], [...command[1]], { stdio: 'pipe' });
}

export interface ThrowawayCluster {
  /** URL of the migrated database `name` on this cluster. */
  url: string;
  port: number;
  start(): void;
  stop(): void;
  /** SIGSTOP to the server and every backend: connections stay open, nothing answers. */
  freeze(): void;
  /** SIGCONT to the same processes. */
  thaw(): void;
  /** Stops the cluster and deletes its folder. */
  remove(): void;
}

export async function startThrowawayCluster(database: string): Promise<ThrowawayCluster> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mallfront-cluster-'));
  if (asRoot) chownSync(dataDir, Number(execFileSync('id', ['-u', 'postgres'])), Number(execFileSync('id', ['-g', 'postgres'])));
  const port = await freePort();
  pgTool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const pgCtl = (action: 'start' | 'stop') =>
    pgTool('pg_ctl', ['-D', dataDir, '-l', path.join(dataDir, 'server.log'), '-w', '-m', 'fast', '-o', `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`, action]);
  pgCtl('start');
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
  const orm = await openOrm({ clientUrl: url, poolSize: 2 });
  await migrate(orm);
  await orm.close();

  return controlled(dataDir, port, url, pgCtl);
}

/**
 * A streaming replica of `primary` (a throwaway cluster started with `startThrowawayCluster`):
 * `pg_basebackup -R` into a folder of its own, started on another free port. Same controls.
 */
export async function startStreamingReplica(primary: ThrowawayCluster): Promise<ThrowawayCluster> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mallfront-replica-'));
  if (asRoot) chownSync(dataDir, Number(execFileSync('id', ['-u', 'postgres'])), Number(execFileSync('id', ['-g', 'postgres'])));
  const port = await freePort();
  pgTool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dataDir, '-R', '-X', 'stream', '--no-sync', '-c', 'fast']);
  // A standby reports to the primary often, so the primary's view of it is fresh too.
  const pgCtl = (action: 'start' | 'stop') =>
    pgTool('pg_ctl', ['-D', dataDir, '-l', path.join(dataDir, 'server.log'), '-w', '-m', 'fast', '-o', `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c wal_receiver_status_interval=1s`, action]);
  pgCtl('start');
  const url = new URL(primary.url);
  url.port = String(port);
  return controlled(dataDir, port, url.toString(), pgCtl);
}

function controlled(dataDir: string, port: number, url: string, pgCtl: (action: 'start' | 'stop') => void): ThrowawayCluster {
  let frozen: number[] = [];
  /** The postmaster (first line of postmaster.pid) and its children, by process id. */
  const serverProcesses = () => {
    const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)]).toString().split('\n').map(Number).filter((pid) => pid > 0);
    return [postmaster, ...children];
  };
  const thaw = () => {
    for (const pid of frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Gone meanwhile.
      }
    }
    frozen = [];
  };
  return {
    url,
    port,
    start: () => pgCtl('start'),
    stop: () => pgCtl('stop'),
    freeze() {
      frozen = serverProcesses();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw,
    remove() {
      try {
        thaw();
        pgCtl('stop');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
