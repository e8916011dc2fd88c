import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** The compiled server (`npm test` builds `dist/` before the suites run). */
export const MAIN = path.resolve('dist/src/main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  wsUrl: string;
  output(): string;
  /** SIGTERM, and the exit code once it has stopped. */
  stop(): Promise<number | null>;
}

/**
 * Whether process `pid` holds the listening socket of `port`, read from Linux's /proc (anywhere else:
 * assumed). Between `freePort` closing its probe and the child's listen, a server another test file
 * starts can take the port; its /readyz answers 200 too, and a test then talked to a server of another
 * database (CI saw a valid token answered 401 that way).
 */
async function listensOn(pid: number, port: number): Promise<boolean> {
  const tables = await Promise.all(['/proc/net/tcp', '/proc/net/tcp6'].map((table) => readFile(table, 'utf8').catch(() => null)));
  if (tables.every((table) => table === null)) return true;
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const line of tables.flatMap((table) => (table ?? '').split('\n').slice(1))) {
    const fields = line.trim().split(/\s+/);
    // local_address, st (0A: LISTEN), inode
    if (fields.length > 9 && fields[1].endsWith(local) && fields[3] === '0A') inodes.add(fields[9]);
  }
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
    const socket = /^socket:\[(\d+)\]$/.exec(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ''));
    if (socket && inodes.has(socket[1])) return true;
  }
  return false;
}

/**
 * Starts `node dist/src/main.js` as its own process and waits until its own `/readyz` answers 200.
 * Without a PORT, a port taken by another process before the child could listen is given up for another.
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, options: { cwd?: string; timeoutMs?: number; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const until = Date.now() + (options.timeoutMs ?? 60_000);
  for (let attempt = 1; ; attempt++) {
    const port = Number(env.PORT ?? (await freePort()));
    const started = await startOn(port, env, options, until);
    if (started !== 'port taken') return started;
    if (env.PORT !== undefined || attempt === 5) throw new Error(`port ${port} was taken by another process before the server could listen`);
  }
}

async function startOn(port: number, env: NodeJS.ProcessEnv, options: { cwd?: string; nodeArgs?: string[] }, until: number): Promise<ServerProcess | 'port taken'> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) };
  delete childEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], { cwd: options.cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  while (Date.now() < until) {
    if (child.exitCode !== null) {
      if (output.includes('EADDRINUSE')) return 'port taken';
      throw new Error(`server exited early:\n${output}`);
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 && (await listensOn(child.pid!, port))) {
        return { child, port, baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/graphql`, output: () => output, stop };
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}
