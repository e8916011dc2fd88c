import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newStaff, PASSWORD, type TestUser } from './support/fixtures.js';
import { PlatformRole } from '../src/entities/user.entity.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, sessionFor, storePages, type StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The platform's own staff in Chromium (issue 41): an admin invites a support member by email and
 * passes on the one-time link; the invitee, signed in as a customer, accepts it on the storefront and
 * opens the platform console offered only support's screens. The admin changes a role in place and
 * removes a member; removing the last admin is refused, in words.
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

const navLinks = async (page: Page) => (await page.getByRole('navigation', { name: 'Platform console' }).getByRole('link').allInnerTexts()).map((s) => s.trim());
const platformRole = async (userId: number) => (await t.sql<{ platform_role: string | null }>('select platform_role from app_user where id = ?', [userId]))[0].platform_role;

describe("the platform's staff in the console", () => {
  it('an admin invites a support member by link; they accept on the storefront and are offered only support screens', async () => {
    const admin = await newAdmin(t);
    const invitee = await newCustomer(t);

    const { store: adminStore, page: adminPage } = await signedIn(admin, '/admin/staff');
    await adminPage.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    expect(await navLinks(adminPage)).toContain('Staff');
    await adminPage.getByRole('cell', { name: /\(you\)$/ }).waitFor();

    // An address that is not one is refused on its field; nothing is sent.
    await adminPage.getByLabel('Email').fill('not-an-email');
    await adminPage.getByRole('button', { name: 'Invite', exact: true }).click();
    await adminPage.locator('#f-invite-email-error').waitFor();
    expect((await t.sql('select count(*)::int as n from staff_invitation'))[0].n).toBe(0);

    await adminPage.getByLabel('Email').fill(invitee.email);
    await adminPage.getByLabel('Role', { exact: true }).selectOption('SUPPORT');
    await adminPage.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = (await adminPage.getByLabel('Invitation link').innerText()).trim();
    expect(link).toMatch(new RegExp(`^${t.baseUrl}/join-staff\\?token=[\\w-]+$`));
    await adminPage.getByRole('listitem').filter({ hasText: `${invitee.email} as support` }).waitFor();

    // The invitee opens the link signed in with the invited email, accepts, and opens the console.
    const { store, page } = await signedIn(invitee, link.slice(t.baseUrl.length));
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('link', { name: 'Open the platform console' }).click();
    // Support has no live operations: the console opens on the first screen the role opens.
    await page.getByRole('navigation', { name: 'Platform console' }).waitFor();
    expect(await navLinks(page)).toEqual(['Shops', 'Orders', 'Disputes', 'Customers']);
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Staff' }).count()).toBe(0);

    // The admin sees the new member, and the link does not work twice.
    await adminPage.reload();
    await adminPage.getByRole('cell', { name: invitee.email }).waitFor();
    expect(await adminPage.getByRole('listitem').filter({ hasText: invitee.email }).count()).toBe(0);
    const again = await t.api('POST', '/api/me/staff-invitations/accept', { token: invitee.token, body: { token: new URL(link).searchParams.get('token') } });
    expect(again.status).toBe(404);
    expect(adminStore.problems).toEqual([]);
    expect(store.problems).toEqual([]);
  });

  it('an admin changes a role in place and removes a member; the last admin is refused in words', async () => {
    const admin = await newAdmin(t);
    const content = await newStaff(t, PlatformRole.Content);
    const name = 'Test User';
    const { page } = await signedIn(admin, '/admin/staff');
    const row = page.getByRole('row').filter({ hasText: content.email });
    await row.waitFor();
    await row.getByLabel(`Role of ${name}`).selectOption('FINANCE');
    await expect.poll(() => platformRole(content.id)).toBe('finance');

    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => platformRole(content.id)).toBe(null);
    await row.waitFor({ state: 'detached' });

    // Alone as admin, removing oneself is refused, and said so.
    await t.sql(`update app_user set platform_role = 'support' where platform_role = 'admin' and id <> ?`, [admin.id]);
    const mine = page.getByRole('row').filter({ hasText: admin.email });
    await mine.getByRole('button', { name: 'Remove' }).click();
    await mine.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByText('The platform needs at least one admin').waitFor();
    expect(await platformRole(admin.id)).toBe('admin');
  });
});
