import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from './harness.js';
import { freePort } from './server-process.js';
import { TcpProxy } from './tcp-proxy.js';
import type { KeyObject } from 'node:crypto';

const pem = (key: KeyObject, type: 'pkcs1' | 'spki') => key.export({ format: 'pem', type } as never) as unknown as string;

/**
 * A test server offering Alipay (through the official SDK, pointed at `gatewayUrl`) behind a proxy on a
 * port chosen first: Alipay reaches the server at PUBLIC_URL, the proxy's address, as a reverse proxy
 * is in front of a real one (the SDK signs notify_url and return_url with it before the server runs).
 */
export async function startAlipayApp(keys: { appId: string; appPrivateKey: KeyObject; alipayPublicKey: KeyObject; gatewayUrl: string }): Promise<{ t: TestApp; front: TcpProxy; publicUrl: string }> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'test', PAYMENT_METHODS: 'wallet,alipay', ALIPAY_APP_ID: keys.appId, ALIPAY_PRIVATE_KEY: pem(keys.appPrivateKey, 'pkcs1'),
    ALIPAY_PUBLIC_KEY: pem(keys.alipayPublicKey, 'spki'), ALIPAY_GATEWAY_URL: keys.gatewayUrl, PUBLIC_URL: publicUrl,
  };
  const t = await startTestApp({ payments: loadConfig(env).payments });
  const front = new TcpProxy('127.0.0.1', t.app.port);
  await front.start(port);
  return { t, front, publicUrl };
}
