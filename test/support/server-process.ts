import { spawn, type ChildProcess } from 'node:child_process';
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

/** Starts `node dist/src/main.js` as its own process and waits until `/readyz` answers 200. */
export async function startServerProcess(env: NodeJS.ProcessEnv, options: { cwd?: string; timeoutMs?: number; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
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
  const until = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) {
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
