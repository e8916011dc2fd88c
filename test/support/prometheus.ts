import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian's Prometheus server and its rule checker (`apt-get install prometheus`). */
export const PROMETHEUS = existsSync('/usr/bin/prometheus') ? '/usr/bin/prometheus' : null;
export const PROMTOOL = existsSync('/usr/bin/promtool') ? '/usr/bin/promtool' : null;

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits for `check` to hold (by condition), up to a ceiling far above what a loaded machine needs. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, ceilingMs = 60_000): Promise<T> {
  const deadline = Date.now() + ceilingMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface RunningPrometheus {
  url: string;
  /** One instant query's samples: `[labels, value]` each. */
  query(expression: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  stop(): Promise<void>;
}

/**
 * A Prometheus server of the test's own: its configuration (one job scraping `target` every second,
 * with the bearer `token` when given) and its storage in a temporary directory, on a free port.
 */
export async function startPrometheus(target: string, token?: string): Promise<RunningPrometheus> {
  if (!PROMETHEUS) throw new Error('prometheus is not installed (apt-get install prometheus)');
  const dir = mkdtempSync(path.join(tmpdir(), 'mallfront-prometheus-'));
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  scrape_timeout: 1s',
    'scrape_configs:',
    '  - job_name: mallfront',
    '    metrics_path: /metrics',
    ...(token ? ['    authorization:', '      type: Bearer', `      credentials: ${JSON.stringify(token)}`] : []),
    '    static_configs:',
    `      - targets: [${JSON.stringify(target)}]`,
  ].join('\n');
  writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(PROMETHEUS, [
    `--config.file=${path.join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await until('prometheus to be ready', async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
      return (await fetch(`${url}/-/ready`)).ok ? true : undefined;
    });
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async query(expression) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`);
      const body = (await res.json()) as { status: string; error?: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      if (body.status !== 'success') throw new Error(`query ${expression}: ${body.error}`);
      return body.data!.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
