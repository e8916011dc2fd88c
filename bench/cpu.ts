import { readFileSync, readdirSync } from 'node:fs';
import type pg from 'pg';

/**
 * CPU time spent by the server processes (the one started and its cluster workers) and by the
 * database's backends serving the bench database, per measured run. On a machine shared with other
 * work, requests per second move with the neighbours' load; CPU per request hardly does, so it is
 * the figure to compare between runs. Read from /proc (Linux); elsewhere the meter reports nothing.
 */
export interface CpuMeter {
  start(): Promise<void>;
  /** Microseconds of CPU (user + system) since `start`, or null where /proc is not available. */
  stop(): Promise<{ serverUs: number; dbUs: number } | null>;
}

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux build we know of

function cpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The process and its children (cluster workers). */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) pids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}

async function backendPids(db: pg.Client, dbName: string): Promise<number[]> {
  const { rows } = await db.query(
    `select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    [dbName],
  );
  return rows.map((r) => r.pid as number);
}

function snapshot(pids: number[]): Map<number, number> {
  return new Map(pids.flatMap((pid) => {
    const us = cpuMicros(pid);
    return us === undefined ? [] : [[pid, us] as const];
  }));
}

/** Sum of CPU used since `before` by the processes alive now (those started meanwhile count whole). */
function usedSince(before: Map<number, number>, pids: number[]): number {
  let total = 0;
  for (const [pid, us] of snapshot(pids)) total += us - (before.get(pid) ?? 0);
  return total;
}

export function cpuMeter(serverPid: number, db: pg.Client, dbName: string): CpuMeter {
  const available = cpuMicros(process.pid) !== undefined;
  let server = new Map<number, number>();
  let backends = new Map<number, number>();
  return {
    async start() {
      if (!available) return;
      server = snapshot(processTree(serverPid));
      backends = snapshot(await backendPids(db, dbName));
    },
    async stop() {
      if (!available) return null;
      return {
        serverUs: usedSince(server, processTree(serverPid)),
        dbUs: usedSince(backends, [...new Set([...backends.keys(), ...(await backendPids(db, dbName))])]),
      };
    },
  };
}

/** Per-request figures from a meter's reading. */
export function perRequest(cpu: { serverUs: number; dbUs: number } | null | undefined, requests: number) {
  if (!cpu || requests === 0) return {};
  return { serverUsPerRequest: Math.round(cpu.serverUs / requests), dbUsPerRequest: Math.round(cpu.dbUs / requests) };
}
