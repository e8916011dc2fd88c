import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';
import type { AppConfig } from '../config.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthThrottleCount } from '../entities/auth-throttle.entity.js';
import { WorkGate, type Lane } from './work-gate.js';

/**
 * Brute-force and flood protection of sign-in and registration (README "Configuration"):
 * - every attempt is counted per IP address and per email, in PostgreSQL (table `auth_throttle`), so
 *   all server processes share the counts; over a limit the attempt is refused with 429
 *   RATE_LIMITED before any password is hashed. A successful login clears its email's count.
 * - password hashing runs through a `WorkGate`; a caller whose email and IP have few recent attempts
 *   is served first, so a flood of failing logins cannot queue ahead of a genuine one.
 */
export interface AuthThrottle {
  loginAttempt(ip: string, email: string): Promise<Lane>;
  loginSucceeded(email: string): Promise<void>;
  registrationAttempt(ip: string, email: string): Promise<Lane>;
  hashing: WorkGate;
}

/**
 * A clean record: at most a first try and one retry for the email (a typo), and a few attempts from
 * the IP. An attacker has to bring a fresh email and a fresh address to every request to compete
 * with genuine users for the hashing slots.
 */
const PRIORITY_MAX_EMAIL_ATTEMPTS = 2;
const PRIORITY_MAX_IP_ATTEMPTS = 10;

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 429, `Too many attempts; try again in ${retryAfterSeconds} seconds`, { retry_after_seconds: retryAfterSeconds });

type Counter = RateLimiterPostgres;

function counter(pool: pg.Pool, keyPrefix: string, points: number, windowSeconds: number): Counter {
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    // Created by a migration; expired rows are removed by the `auth-throttle` sweep.
    tableName: 'auth_throttle',
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix,
    points,
    duration: windowSeconds,
  });
}

/** Counts one attempt under the IP and under the email; over either limit, 429 with the longer wait. */
async function countAttempt(byIp: Counter, ip: string, byEmail: Counter, email: string): Promise<Lane> {
  const [ipCount, emailCount] = await Promise.allSettled([byIp.consume(ip), byEmail.consume(email)]);
  const refusals: RateLimiterRes[] = [];
  for (const result of [ipCount, emailCount]) {
    if (result.status === 'fulfilled') continue;
    // Anything but a refusal is the store failing: the error mapping makes it SERVICE_UNAVAILABLE.
    if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
    refusals.push(result.reason);
  }
  if (refusals.length > 0) throw rateLimited(Math.max(1, Math.ceil(Math.max(...refusals.map((r) => r.msBeforeNext)) / 1000)));
  const clean =
    (ipCount as PromiseFulfilledResult<RateLimiterRes>).value.consumedPoints <= PRIORITY_MAX_IP_ATTEMPTS &&
    (emailCount as PromiseFulfilledResult<RateLimiterRes>).value.consumedPoints <= PRIORITY_MAX_EMAIL_ATTEMPTS;
  return clean ? 'priority' : 'normal';
}

export function postgresAuthThrottle(pool: pg.Pool, config: Pick<AppConfig, 'authThrottle' | 'passwordHashing'>): AuthThrottle {
  const { windowSeconds, loginPerAccount, loginPerIp, registerPerIp, registerPerEmail } = config.authThrottle;
  const loginByIp = counter(pool, 'login_ip', loginPerIp, windowSeconds);
  const loginByEmail = counter(pool, 'login_email', loginPerAccount, windowSeconds);
  const registerByIp = counter(pool, 'register_ip', registerPerIp, windowSeconds);
  const registerByEmail = counter(pool, 'register_email', registerPerEmail, windowSeconds);
  return {
    hashing: new WorkGate(config.passwordHashing.concurrency, config.passwordHashing.queueLimit),
    loginAttempt: (ip, email) => countAttempt(loginByIp, ip, loginByEmail, email),
    loginSucceeded: async (email) => {
      await loginByEmail.delete(email);
    },
    registrationAttempt: (ip, email) => countAttempt(registerByIp, ip, registerByEmail, email),
  };
}

/** For contexts no client request made (service tests, the seed): nothing counted, hashing uncapped. */
export const unthrottled: AuthThrottle = {
  hashing: new WorkGate(Number.POSITIVE_INFINITY, 0),
  loginAttempt: () => Promise.resolve('priority'),
  loginSucceeded: () => Promise.resolve(),
  registrationAttempt: () => Promise.resolve('priority'),
};

/** Sweep: removes counts whose window ended (the limiter itself only resets them when touched). */
export function pruneAuthThrottle({ em }: { em: EntityManager }): Promise<number> {
  return em.nativeDelete(AuthThrottleCount, { expire: { $lt: Date.now() } });
}
