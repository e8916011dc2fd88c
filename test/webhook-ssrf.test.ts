import dns from 'node:dns';
import os from 'node:os';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, type TestUser } from './support/fixtures.js';
import { mutate } from './support/graphql.js';
import { commitEvents, marker, waitFor } from './support/subscriptions.js';
import { startReceiver } from './support/webhook-receiver.js';
import { loadConfig } from '../src/config.js';
import { postWebhook } from '../src/services/events/webhooks/webhook-sender.js';

/**
 * Webhook safety (SSRF), on a server with production's rules (https only, no private address). Every
 * spelling of a host that is not a global unicast address is refused when the endpoint is saved, over
 * both doors, and when an attempt connects (a URL stored before the rules, or a name that resolves
 * elsewhere now): the WHATWG URL parser turns decimal, octal, hex and short IPv4 and full-width dots
 * into the address, and each IPv6 form that carries an IPv4 address is judged by it.
 */
const base = loadConfig({ NODE_ENV: 'test' }).webhooks;
let strict: TestApp;
let admin: TestUser;

/**
 * A name of this machine that its resolver (the hosts file) maps to loopback, unlike `localhost`
 * refused by its name alone: the machine's own name where it resolves so (it does on Debian and in
 * containers), else `localhost`.
 */
let ownName = 'localhost';

beforeAll(async () => {
  const own = await dns.promises.lookup(os.hostname(), { all: true }).catch(() => []);
  if (own.length > 0 && own.every((a) => a.address.startsWith('127.') || a.address === '::1')) ownName = os.hostname();
  HOSTS.push(ownName);
  strict = await startTestApp({ outbox: { pollMs: 100, retentionSeconds: 86_400 }, webhooks: { ...base, timeoutMs: 1000, retryDelaysSeconds: [] } });
  admin = await newAdmin(strict);
});
afterAll(async () => {
  await strict?.close();
});

/** Hosts (as written in a URL) that reach this machine, a network behind it, or no single global host. */
const HOSTS = [
  // IPv4 loopback in every spelling the URL parser reads.
  '127.0.0.1', '2130706433', '017700000001', '0x7f000001', '0x7f.0.0.1', '0177.0.0.1', '0177.0.0.01', '127.1', '127.0.1', '0x7f.1',
  '127.000.000.001', '127.255.255.254', '0', '0.0.0.0',
  // Full-width dots and digits (IDNA maps them to ASCII).
  '127。0。0。1', '127．0．0．1', '169｡254｡169｡254', '１２７.0.0.1',
  // Private, shared, link-local (cloud metadata), multicast, broadcast, documentation, benchmarking, reserved.
  '10.0.0.1', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0xa9fea9fe', '2852039166', '224.0.0.1', '255.255.255.255',
  '192.0.2.1', '198.18.0.1', '240.0.0.1',
  // IPv6 loopback and unspecified.
  '[::1]', '[0:0:0:0:0:0:0:1]', '[::]',
  // IPv6 forms carrying an IPv4 address: mapped, IPv4-compatible, SIIT, 6to4, NAT64 (well-known and local-use), Teredo.
  '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0::ffff:127.0.0.1]', '[::ffff:169.254.169.254]', '[::ffff:a9fe:a9fe]', '[::ffff:10.0.0.1]',
  '[::127.0.0.1]', '[::7f00:1]', '[::ffff:0:127.0.0.1]', '[2002:7f00:1::]', '[2002:a9fe:a9fe::]', '[2002:808:808::]',
  '[64:ff9b::127.0.0.1]', '[64:ff9b::7f00:1]', '[64:ff9b::808:808]', '[64:ff9b:1::a9fe:a9fe]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  // Link-local, unique-local, site-local, multicast, documentation, discard-only.
  '[fe80::1]', '[febf::1]', '[fc00::1]', '[fd12:3456::1]', '[fec0::1]', '[ff02::1]', '[ff05::1:3]', '[2001:db8::1]', '[100::1]',
  // Names of this machine (and, added once known, one its resolver maps to loopback).
  'localhost', 'LOCALHOST', 'localhost.', 'api.localhost',
];

/** Whole URLs whose parts hide the host: user-info, a backslash, a fragment. */
const TRICKS = [
  'https://example.com@127.0.0.1/hook', 'https://127.0.0.1:443@example.com/hook', 'https://user@[::1]/hook', 'https://127.0.0.1\\@example.com/hook',
  'https://127.0.0.1#@example.com/hook', 'https://example.com%40127.0.0.1/hook', 'http://example.com/hook', 'not a url',
];

const urls = () => [...HOSTS.map((host) => `https://${host}/hook`), ...TRICKS];

it('walks at least 50 spellings', () => {
  expect(new Set(urls()).size).toBeGreaterThanOrEqual(70);
});

it('refuses every spelling when the endpoint is saved, over REST and GraphQL, and stores none', async () => {
  for (const url of urls()) {
    const res = await strict.api('POST', '/api/admin/webhooks', { token: admin.token, body: { url, event_types: ['stock.low'] } });
    expect([url, res.status, res.body.error?.code]).toEqual([url, expect.any(Number), expect.stringMatching(/^(WEBHOOK_URL_REFUSED|VALIDATION_FAILED)$/)]);
    const gql = await mutate(strict, 'createWebhookEndpoint', { url, eventTypes: ['STOCK_LOW'] }, 'endpoint { id }', admin.token);
    expect([url, gql.errors, gql.payload.endpoint, gql.userErrors.map((e) => e.code)]).toEqual([url, undefined, null, [res.body.error.code]]);
  }
  expect(await strict.sql('select * from webhook_endpoint')).toEqual([]);
});

it('says why: the range, and the IPv4 address an IPv6 form carries', async () => {
  const reasons: Record<string, RegExp> = {
    'https://[::7f00:1]/hook': /::7f00:1 is an IPv6 form of 127\.0\.0\.1, a loopback address/,
    'https://[2002:a9fe:a9fe::]/hook': /an IPv6 form of 169\.254\.169\.254, a link-local address/,
    'https://[2002:808:808::]/hook': /a 6to4 address: it reaches 8\.8\.8\.8 through a translator or tunnel, not directly/,
    'https://[fec0::1]/hook': /fec0::1 is a site-local address/,
    'https://[2001:db8::1]/hook': /a reserved \(documentation or future use\) address/,
    'https://2130706433/hook': /127\.0\.0\.1 is a loopback address/,
    'https://api.localhost/hook': /api\.localhost names this machine/,
  };
  for (const [url, reason] of Object.entries(reasons)) {
    const res = await strict.api('POST', '/api/admin/webhooks', { token: admin.token, body: { url, event_types: ['stock.low'] } });
    expect([url, res.status, res.body.error.message]).toEqual([url, 422, expect.stringMatching(reason)]);
  }
});

it('takes global unicast addresses, IPv4 and IPv6 (an IPv4-mapped one is its IPv4 address)', async () => {
  for (const url of ['https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'https://[::ffff:8.8.8.8]/hook']) {
    const res = await strict.api('POST', '/api/admin/webhooks', { token: admin.token, body: { url, event_types: ['stock.low'] } });
    expect([url, res.status]).toEqual([url, 201]);
    await strict.sql('delete from webhook_endpoint where id = ?', [res.body.id]);
  }
});

it('refuses every spelling again when an attempt connects, before any connection is made', async () => {
  const receiver = await startReceiver();
  try {
    for (const host of HOSTS) {
      const result = await postWebhook(`http://${host}:${receiver.port}/hook`, {}, '{}', strict.config.webhooks);
      expect([host, result.status, result.error]).toEqual([host, null, expect.stringMatching(/^refused: /)]);
    }
    expect(receiver.counts.connections).toBe(0);
  } finally {
    await receiver.close();
  }
});

it('refuses a private address again when an attempt connects (a name that resolves there now)', async () => {
  const receiver = await startReceiver();
  try {
    // Stored as if it had resolved elsewhere when registered: the attempt's own lookup refuses it.
    const [{ id }] = await strict.sql<{ id: number }>(
      `insert into webhook_endpoint (url, event_types, secret, created_at) values (?, '{stock.low}', 'whsec_AAAA', now()) returning id`,
      [`http://${ownName}:${receiver.port}/hook`],
    );
    await commitEvents(strict, [marker(500_010)]);
    await waitFor(async () => (await strict.sql('select 1 from webhook_attempt where endpoint_id = ?', [id])).length > 0, 10_000, 'an attempt');
    const [attempt] = await strict.sql<{ status_code: number | null; error: string }>('select status_code, error from webhook_attempt where endpoint_id = ?', [id]);
    expect(attempt).toEqual({ status_code: null, error: expect.stringMatching(/^refused: /) });
    expect(receiver.received).toHaveLength(0);
  } finally {
    await receiver.close();
  }
});
