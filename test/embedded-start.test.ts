import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';

/**
 * `npm start` without DATABASE_URL: the compiled server starts an embedded PostgreSQL under `.data/`
 * of its working folder, migrates, seeds, serves, and on SIGTERM stops cleanly. A second start
 * reuses the data. (`npm test` builds `dist/` before the suites run.)
 */
const main = path.resolve('dist/src/main.js');
const children = new Set<ChildProcess>();

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function startServer(cwd: string, port: number, pgPort: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), LOG_LEVEL: 'info', NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [main], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.status === 200) return { child, output: () => output };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start without DATABASE_URL', () => {
  let cwd: string;
  beforeAll(async () => {
    await access(main);
    cwd = await mkdtemp(path.join(tmpdir(), 'mallfront-embedded-'));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(cwd, { recursive: true, force: true });
  });

  it('starts an embedded PostgreSQL, serves /readyz 200, stops on SIGTERM, and restarts on the same data', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const first = await startServer(cwd, port, pgPort);
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@mallfront.test', password: 'mallfront-dev' }),
    });
    expect(login.status).toBe(200);
    expect(await stop(first.child)).toBe(0);
    await access(path.join(cwd, '.data', 'pg', 'PG_VERSION'));

    const second = await startServer(cwd, port, pgPort);
    expect(second.output()).toMatch(/already-seeded/);
    expect(await stop(second.child)).toBe(0);
  }, 180_000);
});
