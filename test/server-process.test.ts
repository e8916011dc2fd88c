import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from './support/server-process.js';
import { startTestApp, type TestApp } from './support/harness.js';

/**
 * The tests' server processes: one is ready when its own /readyz answers, not when something on its
 * port does (CI once talked to another test file's server, of another database, that had taken the
 * port first, and a valid token was answered 401).
 */
describe('a server process started for a test', () => {
  let t: TestApp;
  let impostor: http.Server;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    port = await freePort();
    impostor = http.createServer((_req, res) => res.writeHead(200).end('{"status":"ok"}'));
    await new Promise<void>((resolve) => impostor.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => impostor.close(resolve));
    await t.close();
  });

  it('is not taken for ready when another process answers on its port', async () => {
    await expect(startServerProcess({ NODE_ENV: 'test', DATABASE_URL: t.dbUrl, PORT: String(port), SWEEP_INTERVAL_SECONDS: '0' })).rejects.toThrow(/taken by another process/);
  });

  it('is ready on a port of its own', async () => {
    const server = await startServerProcess({ NODE_ENV: 'test', DATABASE_URL: t.dbUrl, SWEEP_INTERVAL_SECONDS: '0' });
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});
