import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newOperator, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { commitEvents, marker, waitFor } from './support/subscriptions.js';
import { startReceiver } from './support/webhook-receiver.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, sessionFor, StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The webhook screens of both consoles in Chromium, against a real local receiver: an endpoint added
 * (its secret shown once), pinged, its delivery log read, an event sent again, its secret rotated,
 * turned off, and deleted; a bad URL refused on its field. The shop console sees only its shop's
 * endpoints.
 */
let t: TestApp;
let browser: Browser;
const contexts: StoreContext[] = [];
let admin: TestUser;
let operator: TestUser;

beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test' }).webhooks;
  [t, browser] = await Promise.all([
    startTestApp({ outbox: { pollMs: 100, retentionSeconds: 86_400 }, webhooks: { ...base, allowPrivate: true, allowHttp: true, timeoutMs: 2_000, retryDelaysSeconds: [0.1], disableAfterSeconds: 3600 } }),
    launchBrowser(),
  ]);
  admin = await newAdmin(t);
  operator = await newOperator(t, (await newShop(t, { name: 'Hook Shop' })).id);
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
});

async function consolePage(user: TestUser, path: string): Promise<{ store: StoreContext; page: Page }> {
  const store = await StoreContext.open(browser, t, DESKTOP, await sessionFor(t, user.email, PASSWORD));
  contexts.push(store);
  const page = await store.page();
  await page.goto(path);
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  return { store, page };
}

const secretShown = async (page: Page) => (await page.getByTestId('webhook-secret').locator('code').innerText()).trim();

describe('webhook screens', () => {
  it('the platform console adds, pings, reads, redelivers, rotates, turns off and deletes an endpoint', async () => {
    const receiver = await startReceiver();
    try {
      const { store, page } = await consolePage(admin, '/admin/webhooks');
      await page.getByText('No endpoint yet.').waitFor();

      // A URL that is not one is refused on its own field, and nothing is added.
      await page.getByLabel('URL (https)').fill('not a url');
      await page.getByRole('checkbox', { name: 'Stock low' }).check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.locator('#f-webhook-url-error').waitFor();
      expect(await page.getByLabel('URL (https)').getAttribute('aria-invalid')).toBe('true');
      expect((await t.sql('select count(*)::int as n from webhook_endpoint'))[0].n).toBe(0);

      await page.getByLabel('URL (https)').fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = await page.getByTestId('webhook-secret').locator('code').waitFor().then(() => secretShown(page));
      expect(secret).toMatch(/^whsec_/);
      const row = page.getByTestId('webhook-row').filter({ hasText: receiver.url });
      await row.getByText('Stock low').waitFor();

      // A ping goes to the receiver, signed; the console shows its answer and the log has it.
      await row.getByRole('button', { name: 'Ping' }).click();
      await row.getByTestId('ping-result').getByText('Answered 200').waitFor();
      expect(JSON.parse(receiver.received[0].body).type).toBe('webhook.ping');
      await row.getByRole('button', { name: 'Deliveries' }).click();
      const log = page.getByRole('table', { name: 'Deliveries' });
      await log.getByRole('cell', { name: 'ping' }).waitFor();

      // An event it receives, sent again from the console: it arrives once more.
      const [endpoint] = await t.sql<{ id: number }>('select id from webhook_endpoint');
      await commitEvents(t, [marker(700_001)]);
      const [event] = await t.sql<{ id: string }>(`select id::text as id from event where type = 'stock.low' order by id desc limit 1`);
      await waitFor(() => receiver.received.some((r) => JSON.parse(r.body).type === 'stock.low'), 10_000, 'the event delivered');
      await page.getByLabel('Event id').fill(event.id);
      await page.getByRole('button', { name: 'Send again' }).click();
      await page.getByText(`Event ${event.id} is queued for this endpoint.`).waitFor();
      await waitFor(() => receiver.received.filter((r) => JSON.parse(r.body).type === 'stock.low').length === 2, 10_000, 'the event sent again');

      // A new secret, shown once; then off, with its waiting deliveries cancelled; then deleted.
      await row.getByRole('button', { name: 'Rotate secret' }).click();
      await waitFor(async () => (await row.getByTestId('webhook-secret').count()) === 1, 10_000, 'the new secret shown');
      expect((await row.getByTestId('webhook-secret').locator('code').innerText()).trim()).not.toBe(secret);
      await row.getByRole('button', { name: 'Turn off' }).click();
      await row.getByRole('button', { name: /^Yes/ }).click();
      await row.getByRole('cell', { name: /^Off/ }).waitFor();
      expect((await t.sql<{ active: boolean }>('select active from webhook_endpoint where id = ?', [endpoint.id]))[0].active).toBe(false);
      await row.getByRole('button', { name: 'Delete' }).click();
      await row.getByRole('button', { name: /^Yes/ }).click();
      await page.getByText('No endpoint yet.').waitFor();
      expect(store.problems).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("the shop console lists only its shop's endpoints and adds one for its shop", async () => {
    const receiver = await startReceiver();
    try {
      const platformOwn = await t.api('POST', '/api/admin/webhooks', { token: admin.token, body: { url: `${receiver.url}/platform`, event_types: ['order.placed'] } });
      expect(platformOwn.status).toBe(201);
      const { store, page } = await consolePage(operator, '/merchant/webhooks');
      await page.getByText('No endpoint yet.').waitFor();
      await page.getByLabel('URL (https)').fill(`${receiver.url}/shop`);
      await page.getByRole('checkbox', { name: 'Order placed' }).check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByTestId('webhook-secret').waitFor();
      await page.getByTestId('webhook-row').filter({ hasText: `${receiver.url}/shop` }).waitFor();
      expect(await page.getByTestId('webhook-row').count()).toBe(1);
      expect(await t.sql('select shop_id from webhook_endpoint where url = ?', [`${receiver.url}/shop`])).toEqual([{ shop_id: operator.shopId }]);
      expect(store.problems).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
