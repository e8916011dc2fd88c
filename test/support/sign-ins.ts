import type { TestApp } from './harness.js';
import { newCustomer, PASSWORD, type TestUser } from './fixtures.js';

/**
 * Sign-ins from client addresses of a test's own choosing: the apps of these tests trust loopback as
 * a proxy, so `X-Forwarded-For` names the client address the throttle counts.
 */

/** Made-up client addresses, a new one at each call, from `10.<first>.x.y` on (each file its own `first`). */
export function addresses(first: number): () => string {
  let next = 0;
  return () => {
    next++;
    return `10.${first + Math.floor(next / 62_500)}.${Math.floor(next / 250) % 250}.${next % 250}`;
  };
}

export const login = (app: TestApp, email: string, password: string, ip: string, deviceToken?: string) =>
  app.api('POST', '/api/auth/login', { body: { email, password, ...(deviceToken ? { device_token: deviceToken } : {}) }, headers: { 'x-forwarded-for': ip } });

/** A customer who signed in once from `ip`: the device token that sign-in handed out. */
export async function knownDevice(app: TestApp, ip: string): Promise<{ user: TestUser; deviceToken: string; ip: string }> {
  const user = await newCustomer(app);
  const res = await login(app, user.email, PASSWORD, ip);
  if (res.status !== 200 || !/^d1\./.test(String(res.body.device_token))) throw new Error(`sign-in of a new customer answered ${res.status}`);
  return { user, deviceToken: res.body.device_token as string, ip };
}
