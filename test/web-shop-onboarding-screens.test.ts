import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newProduct, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { placeOrder } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, sessionFor, storePages } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The refusals of the onboarding and shop state screens (issue 41) that the seller journey does not
 * meet: the storefront's application form shows the server's field errors on their fields and a
 * submitted application can be withdrawn; an application is not rejected without a reason; a shop is
 * not suspended without one, nor closed while it has an open order, and the console says why.
 */
let t: TestApp;
let browser: Browser;
let admin: TestUser;
let category: { id: number; name: string };
const pages = storePages(() => ({ browser, t }));

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  admin = await newAdmin(t);
  const { id } = await newCategory(t);
  [category] = await t.sql<{ id: number; name: string }>('select id, name from category where id = ?', [id]);
});
afterAll(async () => {
  await pages.close();
  await t?.close();
});

const applicationBody = (slug: string, email: string) => ({
  legal_name: 'Lantern Works Ltd', shop_name: 'Lantern Works', slug, contact_name: 'Ada Lantern', contact_phone: '+86 138 0000 4444', contact_email: email,
  category_ids: [category.id], terms_accepted: true,
});

const applicationStatus = async (slug: string) => (await t.sql<{ status: string; reject_reason: string | null }>('select status, reject_reason from shop_application where slug = ?', [slug]));

async function adminDesk(path: string): Promise<{ page: Page; problems: string[] }> {
  const { store, page } = await pages.open(undefined, await sessionFor(t, admin.email, PASSWORD));
  await page.goto(path);
  return { page, problems: store.problems };
}

it('shows the server field errors of an application on their fields, then sends it, and the applicant withdraws it', async () => {
  const customer = await newCustomer(t);
  const { store, page } = await pages.open(undefined, await sessionFor(t, customer.email, PASSWORD));
  await page.goto('/account');
  await page.getByRole('link', { name: 'Apply to open a shop' }).click();
  const form = page.getByRole('form', { name: 'Shop application' });
  const slug = `lantern-${Date.now()}`;
  for (const [label, value] of [
    ['Legal name of the business', 'Lantern Works Ltd'], ['Shop name', 'Lantern Works'], ['Shop address (slug)', 'Not A Slug'], ['Contact name', 'Ada Lantern'],
    ['Contact phone', '+86 138 0000 4444'], ['Contact email', customer.email],
  ] as const) {
    await form.getByLabel(label).fill(value);
  }
  // No category and no terms: each refusal is told on its own field, and nothing is stored.
  await form.getByRole('button', { name: 'Send the application' }).click();
  const slugField = form.getByLabel('Shop address (slug)');
  await expect.poll(() => slugField.getAttribute('aria-invalid')).toBe('true');
  expect(await form.getByLabel("I accept the platform's terms for sellers").getAttribute('aria-invalid')).toBe('true');
  await form.getByRole('group', { name: 'Categories you sell (1 to 20)' }).getByRole('alert').waitFor();
  expect(await t.sql('select id from shop_application where applicant_id = ?', [customer.id])).toEqual([]);

  await slugField.fill(slug);
  await form.getByRole('checkbox', { name: category.name, exact: true }).check();
  await form.getByLabel("I accept the platform's terms for sellers").check();
  await form.getByRole('button', { name: 'Send the application' }).click();
  const item = page.getByTestId('shop-application').filter({ hasText: slug });
  await item.and(page.locator('[data-status="SUBMITTED"]')).waitFor();
  expect(await applicationStatus(slug)).toEqual([{ status: 'submitted', reject_reason: null }]);

  await item.getByRole('button', { name: 'Withdraw' }).click();
  await item.and(page.locator('[data-status="WITHDRAWN"]')).waitFor();
  expect(await item.innerText()).toMatch(/^Lantern Works \(lantern-\d+\): Withdrawn /);
  expect(await applicationStatus(slug)).toEqual([{ status: 'withdrawn', reject_reason: null }]);
  expect(store.problems).toEqual([]);
});

it('does not reject an application without a reason; with one, the applicant reads it', async () => {
  const customer = await newCustomer(t);
  const slug = `reasoned-${Date.now()}`;
  const applied = await t.api('POST', '/api/me/shop-applications', { token: customer.token, body: applicationBody(slug, customer.email) });
  expect(applied.status).toBe(201);
  const id = (applied.body as { id: number }).id;

  const desk = await adminDesk('/admin/shop-applications');
  const card = desk.page.getByTestId('shop-application').filter({ hasText: `#${id} Lantern Works` });
  await card.getByText(category.name).waitFor();
  // The applicant's account by name and email, not by its id.
  await card.getByText(`Test User <${customer.email}>`).waitFor();
  await card.getByRole('button', { name: 'Reject' }).click();
  const reason = card.getByLabel('Reason told to the applicant');
  await expect.poll(() => reason.getAttribute('aria-invalid')).toBe('true');
  await card.getByRole('alert').filter({ hasText: 'must not be blank' }).waitFor();
  expect(await applicationStatus(slug)).toEqual([{ status: 'submitted', reject_reason: null }]);

  await reason.fill('The slug names a brand you do not own');
  await card.getByRole('button', { name: 'Reject' }).click();
  await card.waitFor({ state: 'detached' });
  expect(await applicationStatus(slug)).toEqual([{ status: 'rejected', reject_reason: 'The slug names a brand you do not own' }]);
  await desk.page.getByLabel('State').selectOption('REJECTED');
  await desk.page.getByTestId('shop-application').filter({ hasText: `#${id} Lantern Works` }).getByText('“The slug names a brand you do not own”').waitFor();
  expect(desk.problems).toEqual([]);

  const { store, page } = await pages.open(undefined, await sessionFor(t, customer.email, PASSWORD));
  await page.goto('/open-shop');
  await page.getByTestId('shop-application').and(page.locator('[data-status="REJECTED"]')).getByText('“The slug names a brand you do not own”').waitFor();
  expect(store.problems).toEqual([]);
});

it("finds applications on the server by the applicant's email, in any state, with the applicant and categories by name", async () => {
  const wanted = await newCustomer(t);
  const other = await newCustomer(t);
  const apply = async (customer: TestUser, slug: string) => {
    const res = await t.api('POST', '/api/me/shop-applications', { token: customer.token, body: applicationBody(slug, customer.email) });
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  };
  const wantedId = await apply(wanted, `found-${Date.now()}`);
  const otherId = await apply(other, `unsought-${Date.now()}`);
  await t.api('POST', `/api/admin/shop-applications/${wantedId}/reject`, { token: admin.token, body: { reason: 'No licence attached' } });

  const desk = await adminDesk('/admin/shop-applications');
  const rows = desk.page.getByTestId('shop-application');
  await rows.filter({ hasText: `#${otherId} Lantern Works` }).waitFor();
  const search = desk.page.getByRole('search', { name: 'Find shop applications' });
  await search.getByLabel('Shop, contact or applicant').fill(wanted.email.toUpperCase());
  await search.getByRole('button', { name: 'Search' }).click();
  await desk.page.waitForURL(/[?&]q=/);
  // Submitted is the default state: the rejected one is not there, and the server sent no other.
  await desk.page.getByText('No application matches.').waitFor();
  await desk.page.getByLabel('State').selectOption('all');
  const row = rows.filter({ hasText: `#${wantedId} Lantern Works` });
  await row.getByText('“No licence attached”').waitFor();
  await expect.poll(() => rows.count()).toBe(1);
  await row.getByText(`Test User <${wanted.email}>`).waitFor();
  await row.getByText(category.name).waitFor();
  expect(desk.problems).toEqual([]);
});

it('suspends a shop only with a reason, and tells why it will not close a shop with an open order', async () => {
  const shop = await newShop(t, { name: `Open Orders ${Date.now()}` });
  const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 1_000, stock: 5 }] });
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  await placeOrder(t, customer.token, product.skuIds[0], 1);

  const desk = await adminDesk(`/admin/shops?q=${encodeURIComponent(shop.name)}`);
  const row = desk.page.getByTestId('shop-row').filter({ hasText: shop.name });
  await row.getByRole('button', { name: 'Suspend' }).click();
  await expect.poll(() => row.getByLabel('Reason for the suspension').getAttribute('aria-invalid')).toBe('true');

  await row.getByRole('button', { name: 'Close' }).click();
  await row.getByRole('button', { name: 'Yes, close' }).click();
  await row.getByRole('alert').filter({ hasText: 'This shop still has orders in progress: it can be closed once they are completed or cancelled.' }).waitFor();
  expect(await row.getByTestId('shop-state').innerText()).toBe('Active');
  expect(await t.sql('select status from shop where id = ?', [shop.id])).toEqual([{ status: 'active' }]);
  expect(desk.problems).toEqual([]);
});
