import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator, newShop } from './support/fixtures.js';
import { startSmtpStandIn, type SmtpStandIn } from './support/smtp-stand-in.js';
import { startServerProcess } from './support/server-process.js';
import { loadConfig } from '../src/config.js';
import { systemContext } from '../src/server/jobs.js';
import { retryQueuedMail } from '../src/services/mail/mail-queue.js';

/**
 * The mail queue (issue 41): an invitation's email is written with the invitation and sent once it is
 * committed; a mail server that refuses it or cannot be reached, or a process killed before it
 * sent it, leaves the email owed, and the mail sweep sends it later, once, with the link the answer
 * gave. Its text (a one-time link) is kept sealed, and dropped once sent or given up.
 */
let t: TestApp;
let smtp: SmtpStandIn;
const DEVICE_TOKEN_SECRET = 'mail-queue-device-secret-0123456789abcdef';
const env = { NODE_ENV: 'test', PUBLIC_URL: 'https://mall.example', DEVICE_TOKEN_SECRET, SWEEP_INTERVAL_SECONDS: '0' } as const;
beforeAll(async () => {
  smtp = await startSmtpStandIn();
  t = await startTestApp({ mail: loadConfig({ ...env, SMTP_URL: smtp.url }).mail });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

interface MailRow {
  attempts: number;
  sent: boolean;
  failed: boolean;
  sealed: Buffer | null;
}
const mailTo = async (email: string) => t.sql<MailRow>('select attempts, sent_at is not null as sent, failed_at is not null as failed, sealed from outgoing_mail where recipient = ? order by id', [email]);
/** Time passing, as far as the queue is concerned: its waits are over. */
const dueNow = () => t.sql("update outgoing_mail set next_attempt_at = now() where sent_at is null and failed_at is null");
const sweep = () => retryQueuedMail(systemContext(t.deps, 'mail-retry'));
const received = (email: string) => smtp.received.filter((m) => m.to.includes(email));
const tokenIn = (text: string) => /join-shop\?token=([\w-]+)/.exec(text)![1];

async function invite() {
  const shop = await newShop(t);
  const owner = await newOperator(t, shop.id);
  const invitee = await newCustomer(t);
  const res = await t.api('POST', '/api/merchant/invitations', { token: owner.token, body: { email: invitee.email, role: 'catalog' } });
  expect(res.status).toBe(201);
  return { owner, invitee, sent: res.body as { token: string; email_sent: boolean } };
}

it('sends later, once, what the mail server refused: the sweep delivers the link the answer gave, and drops its sealed text', async () => {
  smtp.refuse(true);
  const { invitee, sent } = await invite();
  smtp.refuse(false);
  expect(sent.email_sent).toBe(false);
  const [owed] = await mailTo(invitee.email);
  expect([owed.attempts, owed.sent, owed.failed]).toEqual([1, false, false]);
  // The link is in the row only sealed.
  expect(owed.sealed!.includes(sent.token)).toBe(false);
  // Not due yet: the first retry waits a minute.
  expect(await sweep()).toBe(0);
  expect(received(invitee.email)).toHaveLength(0);
  await dueNow();
  expect(await sweep()).toBe(1);
  expect(received(invitee.email).map((m) => tokenIn(m.text))).toEqual([sent.token]);
  const [done] = await mailTo(invitee.email);
  expect([done.attempts, done.sent, done.sealed]).toEqual([2, true, null]);
  await dueNow();
  expect(await sweep()).toBe(0);
  expect(received(invitee.email)).toHaveLength(1);
});

it('gives an email up after its last retry, and drops its text', async () => {
  smtp.refuse(true);
  try {
    const { invitee } = await invite();
    for (let i = 0; i < 8; i++) {
      await dueNow();
      await sweep();
    }
    const [given] = await mailTo(invitee.email);
    expect([given.attempts, given.sent, given.failed, given.sealed]).toEqual([7, false, true, null]);
  } finally {
    smtp.refuse(false);
  }
});

it('sends each owed email once when four sweeps run at the same moment', async () => {
  smtp.refuse(true);
  const invitees = [];
  for (let i = 0; i < 6; i++) invitees.push((await invite()).invitee);
  smtp.refuse(false);
  await dueNow();
  const sent = await Promise.all(['one', 'two', 'three', 'four'].map((name) => retryQueuedMail(systemContext(t.deps, name))));
  expect(sent.reduce((a, b) => a + b, 0)).toBe(6);
  for (const invitee of invitees) expect(received(invitee.email)).toHaveLength(1);
});

it('sends the email of an invitation whose process was killed before sending it', async () => {
  const shop = await newShop(t);
  const owner = await newOperator(t, shop.id);
  const invitee = await newCustomer(t);
  const server = await startServerProcess({ ...env, SMTP_URL: smtp.url, DATABASE_URL: t.dbUrl });
  smtp.stall(true);
  try {
    const request = fetch(`${server.baseUrl}/api/merchant/invitations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: invitee.email, role: 'support' }),
    }).catch(() => 'connection lost');
    // The invitation is committed and its email is on its way to a mail server that hangs: kill -9 now.
    await expect.poll(() => smtp.stalled.includes(invitee.email), { timeout: 30_000, interval: 25 }).toBe(true);
    const exited = new Promise((resolve) => (server.child.exitCode !== null || server.child.signalCode !== null ? resolve(null) : server.child.once('exit', resolve)));
    server.child.kill('SIGKILL');
    await exited;
    expect(await request).toBe('connection lost');
  } finally {
    smtp.stall(false);
    if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
  }
  const [invitation] = await t.sql<{ token_hash: string }>('select token_hash from member_invitation where email = ?', [invitee.email]);
  expect(invitation).toBeDefined();
  const [owed] = await mailTo(invitee.email);
  expect([owed.attempts, owed.sent, owed.failed]).toEqual([1, false, false]);
  // The killed sender's lease runs out; the sweep of another process sends it, with the link that accepts.
  await dueNow();
  expect(await sweep()).toBe(1);
  const [mail] = received(invitee.email);
  expect(createHash('sha256').update(tokenIn(mail.text)).digest('hex')).toBe(invitation.token_hash);
  const accepted = await t.api('POST', '/api/me/invitations/accept', { token: invitee.token, body: { token: tokenIn(mail.text) } });
  expect(accepted.status).toBe(200);
});
