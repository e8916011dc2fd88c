import { isIPv6 } from 'node:net';
import type pg from 'pg';
import { AppError } from '../errors.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthAttemptCount } from '../entities/auth-attempt.entity.js';
import { WorkGate, type Lane } from './work-gate.js';
import { AttemptCounts } from './attempt-counts.js';
import { postgresCountExchange } from './attempt-count-store.js';

/**
 * Brute-force and flood protection of sign-in and registration, which an attacker cannot turn against
 * the owner of an account (README "Configuration", docs/operations.md "Sign-in limits and device tokens"):
 *
 * - A device token (src/shared/device-token.ts) for the email marks a device that signed in to this
 *   account before: its sign-ins are never refused because of anyone else's failures. Its own
 *   failures are counted per device, and only that device is locked out by them.
 * - Without one, failures are counted per account and address. An address is refused for an account
 *   after `loginPerAccount` failures there (strangers elsewhere cannot lock it), until the window
 *   of its first failure ends: refused attempts are not counted, so the lock cannot be prolonged.
 *   An account that had `loginPerAccount` failures from all addresses together is under attack:
 *   an address may then fail on it only twice, and every attempt without a device token waits a
 *   delay that doubles with each further round of failures, up to `untrustedMaxDelayMs`. A sign-in
 *   from an address that has not failed twice on the account is therefore slowed, never refused
 *   for the account's sake.
 * - Failures without a device token are counted per address over all accounts (`loginPerIp`), and
 *   registrations per address and per email.
 *
 * Attempts are counted before any work and taken back when they succeed (or were never tried), so
 * concurrent guesses cannot pass the check together. Counting happens in memory (`AttemptCounts`,
 * exchanged with the other processes through PostgreSQL twice a second): a refusal costs no round
 * trip. Password hashing runs through a `WorkGate` whose lanes serve device tokens first, then
 * existing accounts with a clean record, then everyone else; a made-up email never gets ahead.
 */
export interface AuthThrottle {
  admitLogin(attempt: LoginAttempt): Admission;
  admitRegistration(client: ClientAddress, email: string): Admission;
  hashing: WorkGate;
  /**
   * Before a refusal (RATE_LIMITED, SERVICE_BUSY) is answered: a short wait, so a client that
   * retries the moment it is refused (a flood, most of all) asks at most about once a second per
   * connection instead of as fast as refusals can be written. Anything else passes at once.
   */
  holdRefusal(error: unknown): Promise<void>;
  /** Exchanges the counts with the other processes now (tests; a timer does it otherwise). */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

export interface ClientAddress {
  /** The client's address as TRUST_PROXY lets it be known (`req.ip`). */
  ip: string;
  /** The request carried forwarding headers (X-Forwarded-For...) that TRUST_PROXY does not let us believe. */
  forwardedUntrusted?: boolean;
}

export interface LoginAttempt extends ClientAddress {
  email: string;
  /** The device a genuine device token for this email names (its nonce), or null. */
  device: string | null;
}

/** An attempt let through: the lane its hashing queues in, its delay, and how to settle its count. */
export interface Admission {
  /** `trusted` for a device token; otherwise `clean` when the record is clean, to be confirmed by the caller (the account must exist). */
  lane: Lane;
  /** Wait this long before checking the password (an account under attack). */
  delayMs: number;
  /** The password was wrong: the attempt stays counted. */
  failed(): void;
  /** The password was right: the attempt is taken back and the address's (or device's) failures on the account forgotten. */
  succeeded(): void;
  /** Nothing was checked (busy, database down): the attempt is taken back. */
  abandoned(): void;
}

/** A clean record: at most a first try and one retry on the account, a few failures from the address. */
const CLEAN_ACCOUNT_FAILURES = 1;
const CLEAN_ADDRESS_FAILURES = 10;
/** An address may fail this often on an account under attack. */
const UNDER_ATTACK_ADDRESS_FAILURES = 2;
/** The first delay of an account under attack; it doubles with each further `loginPerAccount` failures. */
const FIRST_DELAY_MS = 250;
/** Sign-ins from one address that forwards for others, before the TRUST_PROXY warning. */
const PROXY_WARNING_AFTER = 20;
/** Refusals held at once per process; past it they are answered at once (bounded memory). */
const MAX_HELD_REFUSALS = 2_000;

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 429, `Too many attempts; try again in ${retryAfterSeconds} seconds`, { retry_after_seconds: retryAfterSeconds });

const refuseUntil = (resetsAt: number, now: number) => rateLimited(Math.max(1, Math.ceil((resetsAt - now) / 1000)));

/**
 * The address attempts are counted under: an IPv6 client counts by its /64 (one subscriber's
 * network hands out a whole /64, so single addresses cost an attacker nothing); an IPv4-mapped
 * address as IPv4.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

const keys = {
  address: (ip: string) => `login_ip:${ip}`,
  pair: (ip: string, email: string) => `login_pair:${ip} ${email}`,
  account: (email: string) => `login_account:${email}`,
  device: (nonce: string) => `login_device:${nonce}`,
  registerAddress: (ip: string) => `register_ip:${ip}`,
  registerEmail: (email: string) => `register_email:${email}`,
};

class Throttle implements AuthThrottle {
  readonly hashing: WorkGate;
  private readonly forwarders = new Map<string, number>();
  private readonly warned = new Set<string>();
  private held = 0;

  constructor(
    private readonly counts: AttemptCounts,
    private readonly config: Pick<AppConfig, 'authThrottle' | 'passwordHashing'>,
    private readonly log: Logger,
  ) {
    this.hashing = new WorkGate(config.passwordHashing.concurrency, config.passwordHashing.queueLimit);
  }

  admitLogin(attempt: LoginAttempt): Admission {
    const now = Date.now();
    this.noticeForwarder(attempt);
    const { loginPerAccount, loginPerIp, untrustedMaxDelayMs } = this.config.authThrottle;
    if (attempt.device) {
      const key = keys.device(attempt.device);
      const device = this.counts.count(key, now);
      if (device.count >= loginPerAccount) throw refuseUntil(device.resetsAt, now);
      this.counts.add(key, 1, now);
      return { lane: 'trusted', delayMs: 0, failed: () => {}, succeeded: () => this.counts.clear(key), abandoned: () => this.takeBack([key]) };
    }
    const ip = addressKey(attempt.ip);
    const address = this.counts.count(keys.address(ip), now);
    if (address.count >= loginPerIp) throw refuseUntil(address.resetsAt, now);
    const pair = this.counts.count(keys.pair(ip, attempt.email), now);
    const account = this.counts.count(keys.account(attempt.email), now);
    const underAttack = account.count >= loginPerAccount;
    if (pair.count >= (underAttack ? Math.min(UNDER_ATTACK_ADDRESS_FAILURES, loginPerAccount) : loginPerAccount)) throw refuseUntil(pair.resetsAt, now);
    const counted = [keys.address(ip), keys.pair(ip, attempt.email), keys.account(attempt.email)];
    for (const key of counted) this.counts.add(key, 1, now);
    const rounds = Math.floor((account.count - loginPerAccount) / loginPerAccount);
    const delayMs = underAttack ? Math.min(untrustedMaxDelayMs, FIRST_DELAY_MS * 2 ** Math.min(rounds, 20)) : 0;
    const clean = account.count <= CLEAN_ACCOUNT_FAILURES && address.count <= CLEAN_ADDRESS_FAILURES;
    return {
      lane: clean ? 'clean' : 'normal',
      delayMs,
      failed: () => {},
      // The address knew the password: its failures on this account were the owner's typos, and
      // come off the account's and the address's counts with this attempt.
      succeeded: () => {
        this.counts.add(keys.address(ip), -(pair.count + 1));
        this.counts.add(keys.account(attempt.email), -(pair.count + 1));
        this.counts.clear(keys.pair(ip, attempt.email));
      },
      abandoned: () => this.takeBack(counted),
    };
  }

  admitRegistration(client: ClientAddress, email: string): Admission {
    const now = Date.now();
    this.noticeForwarder(client);
    const { registerPerIp, registerPerEmail } = this.config.authThrottle;
    const counted = [keys.registerAddress(addressKey(client.ip)), keys.registerEmail(email)];
    const [address, byEmail] = counted.map((key) => this.counts.count(key, now));
    const over = [address.count >= registerPerIp ? address : null, byEmail.count >= registerPerEmail ? byEmail : null].filter((c) => c !== null);
    if (over.length > 0) throw refuseUntil(Math.max(...over.map((c) => c.resetsAt)), now);
    for (const key of counted) this.counts.add(key, 1, now);
    // A registration is counted whatever its outcome (an attempt at a taken email included).
    return { lane: 'normal', delayMs: 0, failed: () => {}, succeeded: () => {}, abandoned: () => this.takeBack(counted) };
  }

  async holdRefusal(error: unknown): Promise<void> {
    if (!(error instanceof AppError) || (error.code !== 'RATE_LIMITED' && error.code !== 'SERVICE_BUSY')) return;
    const retryAfter = error.details?.retry_after_seconds;
    const ms = Math.min(this.config.authThrottle.refusalHoldMs, typeof retryAfter === 'number' ? retryAfter * 1000 : 0);
    if (ms <= 0 || this.held >= MAX_HELD_REFUSALS) return;
    this.held++;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      this.held--;
    }
  }

  private takeBack(counted: string[]): void {
    for (const key of counted) this.counts.add(key, -1);
  }

  /**
   * Many sign-ins from one address whose requests carry forwarding headers we may not believe: most
   * likely a reverse proxy that TRUST_PROXY does not name, so every client behind it shares its
   * limits. Said once per address and process.
   */
  private noticeForwarder(client: ClientAddress): void {
    if (!client.forwardedUntrusted || this.warned.has(client.ip)) return;
    const seen = (this.forwarders.get(client.ip) ?? 0) + 1;
    if (seen < PROXY_WARNING_AFTER) {
      if (this.forwarders.size < 10_000) this.forwarders.set(client.ip, seen);
      return;
    }
    this.forwarders.delete(client.ip);
    if (this.warned.size < 100) this.warned.add(client.ip);
    this.log.warn(
      { address: client.ip, setting: 'TRUST_PROXY' },
      `Many sign-ins come from ${client.ip} with X-Forwarded-For headers that TRUST_PROXY does not let the server believe. ` +
        'If it is your reverse proxy or load balancer, set TRUST_PROXY to its address or to the number of proxies in front of the server ' +
        '(docs/operations.md); until then every client behind it shares one set of sign-in limits.',
    );
  }

  sync() {
    return this.counts.sync();
  }

  stop() {
    return this.counts.stop();
  }
}

/** The server's throttle: counts in memory, exchanged through `auth_attempt` on `pool`. */
export function postgresAuthThrottle(pool: pg.Pool, config: Pick<AppConfig, 'authThrottle' | 'passwordHashing' | 'memoryBounds'>, log: Logger): AuthThrottle {
  const { windowSeconds, syncIntervalMs } = config.authThrottle;
  const counts = new AttemptCounts(windowSeconds * 1000, postgresCountExchange(pool, windowSeconds), log, config.memoryBounds.signInCountKeys);
  counts.start(syncIntervalMs);
  return new Throttle(counts, config, log);
}

const admitted: Admission = { lane: 'trusted', delayMs: 0, failed: () => {}, succeeded: () => {}, abandoned: () => {} };

/** For contexts no client request made (service tests, the seed): nothing counted, hashing uncapped. */
export const unthrottled: AuthThrottle = {
  hashing: new WorkGate(Number.POSITIVE_INFINITY, 0),
  admitLogin: () => admitted,
  admitRegistration: () => admitted,
  holdRefusal: () => Promise.resolve(),
  sync: () => Promise.resolve(),
  stop: () => Promise.resolve(),
};

/** Sweep: removes counts whose window ended (each process forgets its own copies by itself). */
export function pruneAuthThrottle({ em }: { em: EntityManager }): Promise<number> {
  return em.nativeDelete(AuthAttemptCount, { windowEndsAt: { $lt: new Date() } });
}
