import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt with N=2^14, r=8, p=1 (16 MiB, tens of milliseconds of CPU): the parameters are stored with each hash. */
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const started = performance.now();
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  remember(performance.now() - started);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Compared against when no check has been timed yet, so a failed login costs the same either way. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(KEY_LENGTH).toString('base64');

/** How long the last real checks took (ms), oldest overwritten first. */
const recent: number[] = [];
let next = 0;
const RECENT = 32;

function remember(ms: number): void {
  recent[next] = ms;
  next = (next + 1) % RECENT;
}

/**
 * The answer for an email that has no account: false, after as long as a real check takes (one of
 * the recently measured durations, so their spread is the same too) and without its work. Unknown
 * and wrong give the same answer in the same time, and a flood of made-up emails costs no CPU: the
 * hashing it used to burn is what a genuine sign-in needs. Until a real check has been timed, one
 * is done against a dummy hash.
 */
export async function verifyNoAccount(password: string): Promise<false> {
  if (recent.length === 0) {
    await verifyPassword(password, DUMMY_HASH);
    return false;
  }
  const ms = recent[Math.floor(Math.random() * recent.length)];
  await new Promise((resolve) => setTimeout(resolve, ms));
  return false;
}
