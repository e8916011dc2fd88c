import { timed } from './support/timing.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { loadConfig } from '../src/config.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { addresses, knownDevice, login } from './support/sign-ins.js';

/**
 * The sign-in limits' promises about time, measured on a wall clock: a lock ends with the window of
 * its first failure however long the attacker keeps trying, a known device is never slowed by an
 * attack, and a new device is slowed within the stated bound. The vitest project `timing, alone` runs
 * this file after the rest of the suite, with nothing beside it (on a machine loaded by other suites,
 * ten failed sign-ins alone outlasted the four-second window). The rules without a clock are in
 * auth-throttle.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  // Refusals answered at once, so that the tests can hammer (the hold has a test of its own).
  t = await startTestApp({ trustProxy: ['loopback'], authThrottle: { ...loadConfig({}).authThrottle, refusalHoldMs: 0 } });
});
afterAll(() => t.close());

const freshIp = addresses(19);

describe('an address that keeps failing on an account', () => {
  it('cannot prolong its own lock: refused attempts are not counted, and the lock ends with the window of the first failure', async () => {
    // Long enough for ten failed sign-ins (each a password hash) and an attack through the lock on a
    // slow machine: at load 8 on two cores the ten failures alone took longer than 3.5 s.
    const windowMs = 8_000;
    const short = await startTestApp({ trustProxy: ['loopback'], authThrottle: { ...t.config.authThrottle, windowSeconds: windowMs / 1000 } });
    try {
      const user = await newCustomer(short);
      const ip = freshIp();
      const first = Date.now();
      for (let i = 0; i < 10; i++) expect((await login(short, user.email, 'wrong', ip)).status).toBe(401);
      // Said plainly when the machine is too slow for this test to show anything.
      const failuresTookMs = Date.now() - first;
      expect({ failuresTookMs, leaveTimeToAttack: failuresTookMs < windowMs - 2_000 }).toMatchObject({ leaveTimeToAttack: true });
      let refused = 0;
      // The attacker keeps trying all through the lock.
      while (Date.now() < first + windowMs - 500) {
        expect((await login(short, user.email, 'wrong', ip)).status).toBe(429);
        refused++;
      }
      expect(refused).toBeGreaterThan(10);
      // The window of the first failure (as the database counted it, up to an exchange later) is over.
      await new Promise((resolve) => setTimeout(resolve, first + windowMs + 800 - Date.now()));
      expect((await login(short, user.email, PASSWORD, ip)).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe('an attack on one account from many addresses', () => {
  /** `attempts` wrong passwords at once, each from an address of its own. */
  const attack = (email: string, attempts: number) => Promise.all(Array.from({ length: attempts }, (_, i) => login(t, email, `guess ${i}`, freshIp())));

  it('never keeps the owner out of a device that signed in before, whatever the rate, even from the owner’s own address', async () => {
    const { user, deviceToken, ip } = await knownDevice(t, freshIp());
    await attack(user.email, 40);
    // The attacker shares the owner's address too (the same office network, say).
    for (let i = 0; i < 15; i++) await login(t, user.email, 'guess', ip);
    expect((await login(t, user.email, PASSWORD, ip)).status).toBe(429);

    for (let i = 0; i < 3; i++) {
      const { result, ms } = await timed(() => login(t, user.email, PASSWORD, ip, deviceToken));
      expect(result.status).toBe(200);
      // No delay for a known device: the bound is the hashing, not the attack.
      expect(ms).toBeLessThan(t.config.authThrottle.untrustedMaxDelayMs);
    }
  });

  it('slows a sign-in from a new device, within the stated bound, and never refuses it', async () => {
    const user = await newCustomer(t);
    const bound = t.config.authThrottle.untrustedMaxDelayMs;
    // Attackers at full speed from fresh addresses while the owner signs in from a new device.
    let attacking = true;
    let attempts = 0;
    const attackers = Array.from({ length: 6 }, async () => {
      while (attacking) {
        await login(t, user.email, `guess ${attempts++}`, freshIp());
      }
    });
    try {
      while (attempts < 4 * t.config.authThrottle.loginPerAccount) await new Promise((resolve) => setTimeout(resolve, 20));
      for (let i = 0; i < 3; i++) {
        const { result, ms } = await timed(() => login(t, user.email, PASSWORD, freshIp()));
        expect(result.status).toBe(200);
        expect(ms).toBeGreaterThanOrEqual(250);
        // The delay, plus the hashing and the sign-in itself on a shared machine.
        expect(ms).toBeLessThan(bound + 2_000);
      }
    } finally {
      attacking = false;
      await Promise.all(attackers);
    }
  });
});
