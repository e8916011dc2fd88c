import { generateKeyPairSync } from 'node:crypto';
import { vi } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from './support/harness.js';
import { newCategory, newProduct, newShop } from './support/fixtures.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, StoreContext } from './support/browser.js';
import { startAlipayStandIn, type AlipayStandIn } from './support/alipay-stand-in.js';
import type { TcpProxy } from './support/tcp-proxy.js';
import { startAlipayApp } from './support/alipay-front.js';
import { addToCart, checkOut, register } from './support/storefront-steps.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * A new customer pays with Alipay in Chromium: the cashier sends the browser to the URL the official
 * SDK signed (the stand-in's cashier, test/support/alipay-stand-in.ts), the buyer pays there, Alipay's
 * signed notification reaches the server at PUBLIC_URL, and Alipay sends the browser back to the
 * storefront's waiting page, which shows the order paid. The whole visit is on PUBLIC_URL (a proxy in
 * front of the test server, as a reverse proxy is in front of a real one), so the session survives the
 * trip to Alipay and back.
 */
const APP_ID = '2021000000000042';
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const app = pair();
const alipayKeys = pair();

let t: TestApp;
let browser: Browser;
let alipay: AlipayStandIn;
let front: TcpProxy;
let publicUrl: string;
const contexts: StoreContext[] = [];
let lantern: { id: number };

beforeAll(async () => {
  alipay = await startAlipayStandIn({ appId: APP_ID, appPublicKey: app.publicKey, alipayPrivateKey: alipayKeys.privateKey });
  [{ t, front, publicUrl }, browser] = await Promise.all([
    startAlipayApp({ appId: APP_ID, appPrivateKey: app.privateKey, alipayPublicKey: alipayKeys.publicKey, gatewayUrl: alipay.url }),
    launchBrowser(),
  ]);
  const category = await newCategory(t, await newCategory(t));
  const shop = await newShop(t, { name: 'Harbor Tech' });
  lantern = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Trail Lantern', skus: [{ price: 12900, stock: 20, name: 'Graphite' }] });
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await front?.stop();
  await t?.close();
  await alipay?.close();
});

it("takes a new customer to Alipay's cashier and back to a paid order", async () => {
  const store = await StoreContext.open(browser, { ...t, baseUrl: publicUrl } as TestApp, DESKTOP);
  contexts.push(store);
  const page = await store.page();
  await register(page, `alipay-${Date.now()}@example.test`, 'Alipay Shopper');
  await addToCart(page, lantern.id, 'Trail Lantern');
  await checkOut(page, 1);

  await page.getByRole('radio', { name: 'Alipay' }).check();
  await page.getByRole('button', { name: 'Pay with Alipay' }).click();
  // Alipay's cashier, at the address the SDK signed.
  await page.waitForURL((url) => url.href.startsWith(alipay.url));
  await page.getByRole('heading', { name: /支付宝收银台/ }).waitFor();
  const [trade] = [...alipay.trades.values()];
  expect(trade).toMatchObject({ total_amount: '129.00', trade_status: 'WAIT_BUYER_PAY', return_url: expect.stringMatching(new RegExp(`^${publicUrl}/checkout/payment/\\d+$`)) as unknown });
  await page.getByRole('button', { name: '确认付款 Pay' }).click();

  // Back on the storefront's waiting page, which reads the result from the server only.
  await page.waitForURL((url) => url.origin === publicUrl && url.pathname.startsWith('/checkout/payment/'));
  await page.getByRole('heading', { name: 'Paid. Thank you!' }).waitFor();
  const paymentId = Number(new URL(page.url()).pathname.split('/').pop());
  expect(await t.sql('select status, captured_amount from payment where id = ?', [paymentId])).toEqual([{ status: 'captured', captured_amount: 12900 }]);
  expect(await t.sql<{ source: string; outcome: string }>('select source, outcome from payment_event where payment_id = ? and source = ? order by id', [paymentId, 'notification'])).toEqual([
    { source: 'notification', outcome: 'captured' },
  ]);
  expect(store.problems).toEqual([]);
});
