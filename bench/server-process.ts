import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Starts the compiled server as a user would (production mode, logs at warn) in its own process. */
export async function startServer(options: {
  databaseUrl: string;
  port: number;
  workers: number;
  env?: Record<string, string>;
  /** The checkout whose compiled server to start (another commit's worktree in compare mode); this one by default. */
  root?: string;
}): Promise<{ pid: number; stop(): Promise<void> }> {
  // Something already answering on the port would be measured instead of this server.
  const taken = await fetch(`http://127.0.0.1:${options.port}/readyz`).then(() => true, () => false);
  if (taken) throw new Error(`port ${options.port} is already in use: stop what runs there or pass --port`);
  const root = path.resolve(options.root ?? '.');
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production requires one; a bench run hands out no token that must outlive it.
      DEVICE_TOKEN_SECRET: process.env.DEVICE_TOKEN_SECRET ?? randomBytes(48).toString('base64url'),
      LOG_LEVEL: 'warn',
      DATABASE_URL: options.databaseUrl,
      PORT: String(options.port),
      CLUSTER_WORKERS: String(options.workers),
      SWEEP_INTERVAL_SECONDS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // A bench stopped (Ctrl-C, kill) stops its server too, instead of leaving it serving the port.
  const orphaned = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  const interrupted = () => {
    orphaned();
    process.exit(130);
  };
  process.once('exit', orphaned);
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  child.once('exit', () => {
    process.off('exit', orphaned);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${options.port}/readyz`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  // With several workers, wait until each has taken a connection or two.
  await new Promise((r) => setTimeout(r, options.workers > 1 ? 1000 : 200));
  return {
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
