import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { addMembership, newCategory, newCustomer, newOperator, newProduct, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { ShopRole } from '../src/entities/shop-membership.entity.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, sessionFor, storePages, type StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Staff with roles in the shop console, in Chromium (issue 41): an owner invites someone by email and
 * passes on the one-time link; the invitee, signed in as a customer, accepts it on the storefront and
 * opens the console as a finance member, offered money and orders but not products or members. A
 * member of two shops chooses the shop to work in, sees that shop's products, and switches.
 */
let t: TestApp;
let browser: Browser;
const pages = storePages(() => ({ browser, t }));
beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await pages.close();
  await t?.close();
});

async function signedIn(user: TestUser, path: string): Promise<{ store: StoreContext; page: Page }> {
  const opened = await pages.open(DESKTOP, await sessionFor(t, user.email, PASSWORD));
  await opened.page.goto(path);
  return opened;
}

const navLinks = async (page: Page) => (await page.getByRole('navigation', { name: 'Shop console' }).getByRole('link').allInnerTexts()).map((s) => s.trim());

describe('the shop console for staff with roles', () => {
  it('an owner invites a finance member by link; they accept on the storefront and are offered money and orders, not products or members', async () => {
    const shop = await newShop(t, { name: 'Ledger & Co' });
    const owner = await newOperator(t, shop.id);
    const invitee = await newCustomer(t);

    const { store: ownerStore, page: ownerPage } = await signedIn(owner, '/merchant/members');
    await ownerPage.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect(await navLinks(ownerPage)).toEqual(['Dashboard', 'Products', 'Orders', 'Refunds', 'Reviews', 'Coupon templates', 'Flash sales', 'Group buys', 'Freight templates', 'Money', 'Members', 'Webhooks', 'Audit log']);
    await ownerPage.getByRole('cell', { name: /\(you\)$/ }).waitFor();

    // An address that is not one is refused on its field; nothing is sent.
    await ownerPage.getByLabel('Email').fill('not-an-email');
    await ownerPage.getByRole('button', { name: 'Invite', exact: true }).click();
    await ownerPage.locator('#f-invite-email-error').waitFor();
    expect(await ownerPage.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect((await t.sql('select count(*)::int as n from member_invitation where shop_id = ?', [shop.id]))[0].n).toBe(0);

    await ownerPage.getByLabel('Email').fill(invitee.email);
    await ownerPage.getByLabel('Role', { exact: true }).selectOption('FINANCE');
    await ownerPage.getByRole('button', { name: 'Invite', exact: true }).click();
    const firstLink = (await ownerPage.getByLabel('Invitation link').innerText()).trim();
    expect(firstLink).toMatch(new RegExp(`^${t.baseUrl}/join-shop\\?token=[\\w-]+$`));
    // No mail server in this test app: the console says the email did not go, so the owner passes the link on.
    await ownerPage.getByRole('status').getByText('The email did not go out').waitFor();
    // The owner sends it again (the first link went astray): a new link, and the first one stops working.
    await ownerPage.getByRole('listitem').filter({ hasText: `${invitee.email} as finance` }).getByRole('button', { name: 'Send again' }).click();
    await ownerPage.getByText('sent again: the earlier link no longer works').waitFor();
    const link = (await ownerPage.getByLabel('Invitation link').allInnerTexts()).map((l) => l.trim()).find((l) => l !== firstLink)!;
    expect(link).toMatch(new RegExp(`^${t.baseUrl}/join-shop\\?token=[\\w-]+$`));
    const stale = await t.api('POST', '/api/me/invitations/accept', { token: invitee.token, body: { token: new URL(firstLink).searchParams.get('token') } });
    expect(stale.status).toBe(404);

    // The invitee opens the link signed in with the invited email, accepts, and opens the console.
    const { page } = await signedIn(invitee, link.slice(t.baseUrl.length));
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('link', { name: 'Open the shop console' }).click();
    // A finance member has no dashboard: the console opens on the first screen the role opens.
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/merchant/orders');
    expect(await navLinks(page)).toEqual(['Orders', 'Money']);
    await page.getByRole('link', { name: 'Money' }).click();
    await page.getByRole('heading', { name: 'Money', level: 1 }).waitFor();

    // The owner sees the new member, and the link does not work twice.
    await ownerPage.reload();
    await ownerPage.getByRole('cell', { name: invitee.email }).waitFor();
    const again = await t.api('POST', '/api/me/invitations/accept', { token: invitee.token, body: { token: new URL(link).searchParams.get('token') } });
    expect(again.status).toBe(404);
    expect(ownerStore.problems).toEqual([]);
  });

  it('a member of two shops chooses the shop to work in, sees its products, and switches', async () => {
    const category = await newCategory(t);
    const [a, b] = [await newShop(t, { name: 'Alder Goods' }), await newShop(t, { name: 'Birch Supply' })];
    await newProduct(t, { shopId: a.id, categoryId: category.id, name: 'Alder lamp' });
    await newProduct(t, { shopId: b.id, categoryId: category.id, name: 'Birch stool' });
    const member = await newOperator(t, a.id);
    await addMembership(t, member.id, b.id, ShopRole.Catalog);

    const { store, page } = await signedIn(member, '/merchant/products');
    await page.getByRole('heading', { name: 'Choose the shop to work in' }).waitFor();
    expect(await navLinks(page)).toEqual([]);
    await page.getByRole('button', { name: 'Birch Supply' }).click();
    // A catalog member of Birch: its products, and only the catalog's screens.
    await page.getByRole('link', { name: 'Birch stool' }).waitFor();
    expect(await page.getByRole('link', { name: 'Alder lamp' }).count()).toBe(0);
    expect(await navLinks(page)).toEqual(['Products', 'Coupon templates', 'Flash sales', 'Group buys', 'Freight templates']);

    await page.getByLabel('Shop to work in').selectOption(String(a.id));
    await page.getByRole('link', { name: 'Alder lamp' }).waitFor();
    expect(await page.getByRole('link', { name: 'Birch stool' }).count()).toBe(0);
    expect(await navLinks(page)).toContain('Members');
    // The choice is kept across a reload.
    await page.reload();
    await page.getByRole('link', { name: 'Alder lamp' }).waitFor();
    expect(store.problems).toEqual([]);
  });
});
