import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/harness.js';
import { addMembership, newAdmin, newCustomer, newMember, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { ShopRole } from '../src/entities/shop-membership.entity.js';
import { openOrm } from '../src/db/orm.js';
import { adminQuery, databaseUrl, PREFIX } from './support/databases.js';
import { commitEvents, orderPlaced, subscribe, waitFor } from './support/subscriptions.js';

/**
 * Staff with roles (issue 41): the shop a request acts for, what each role may do, invitations by a
 * one-time link, role changes and removals, and the rule that a shop always keeps an owner, even
 * when its last two owners remove each other at the same moment.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const as = (user: TestUser, shopId?: number): { token: string; headers: Record<string, string> } => ({
  token: user.token,
  headers: shopId === undefined ? {} : { 'x-shop-id': String(shopId) },
});
const owners = async (shopId: number) =>
  (await t.sql<{ n: number }>(`select count(*)::int as n from shop_membership where shop_id = ? and role = 'owner'`, [shopId]))[0].n;

describe('the shop a request acts for', () => {
  it('is the only membership by default; a member of several names one in X-Shop-Id, over both doors', async () => {
    const [a, b] = [await newShop(t), await newShop(t)];
    const single = await newOperator(t, a.id);
    expect((await t.api('GET', '/api/me', as(single))).body).toMatchObject({ shop_id: a.id, memberships: [{ shop_id: a.id, role: 'owner' }] });

    const both = await newMember(t, a.id, ShopRole.Catalog);
    await addMembership(t, both.id, b.id, ShopRole.Finance);
    const unnamed = await t.api('GET', '/api/merchant/products', as(both));
    expect([unnamed.status, unnamed.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(unnamed.body.error.message).toContain('X-Shop-Id');
    expect((await t.api('GET', '/api/merchant/products', as(both, a.id))).status).toBe(200);
    // In shop b the same user is finance: money, not products.
    expect((await t.api('GET', '/api/merchant/products', as(both, b.id))).status).toBe(403);
    expect((await t.api('GET', '/api/merchant/balances', as(both, b.id))).status).toBe(200);
    expect((await t.api('GET', '/api/me', as(both, b.id))).body).toMatchObject({ shop_id: b.id });

    // A shop one does not belong to, or a header that is no id: no shop, a clear 403.
    const stranger = await newShop(t);
    const notMine = await t.api('GET', '/api/merchant/products', as(single, stranger.id));
    expect([notMine.status, notMine.body.error.message]).toEqual([403, 'You are not a member of the shop named in X-Shop-Id']);
    const garbled = await t.api('GET', '/api/merchant/products', { token: single.token, headers: { 'x-shop-id': 'one' } });
    expect([garbled.status, garbled.body.error.code]).toEqual([403, 'FORBIDDEN']);

    // GraphQL honours the same header.
    const gql = (shopId?: number) =>
      fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${both.token}`, ...(shopId ? { 'x-shop-id': String(shopId) } : {}) },
        body: JSON.stringify({ query: '{ me { shopId memberships { shopId role } } merchantBalances { __typename } }' }),
      }).then((r) => r.json() as Promise<{ data: any; errors?: any[] }>);
    const inB = await gql(b.id);
    expect(inB.errors).toBeUndefined();
    expect(inB.data.me).toEqual({ shopId: b.id, memberships: [{ shopId: a.id, role: 'CATALOG' }, { shopId: b.id, role: 'FINANCE' }] });
    const inA = await gql(a.id);
    expect(inA.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });

  it("names each membership's shop and lists what the request may do for the shop it acts for, over both doors", async () => {
    const [a, b] = [await newShop(t), await newShop(t)];
    const member = await newMember(t, a.id, ShopRole.Catalog);
    await addMembership(t, member.id, b.id, ShopRole.Finance);
    const rest = async (shopId?: number) => (await t.api('GET', '/api/me', as(member, shopId))).body;
    const names = [{ shop_id: a.id, role: 'catalog', shop_name: a.name }, { shop_id: b.id, role: 'finance', shop_name: b.name }];
    // No shop named: only what the account holds itself (a shop role counts for its shop only).
    expect(await rest()).toMatchObject({ shop_id: null, memberships: names, permissions: [] });
    expect((await rest(a.id)).permissions).toEqual(['shop.catalog.manage', 'shop.promotions.manage']);
    expect((await rest(b.id)).permissions).toEqual(['shop.orders.read', 'shop.invoices.issue', 'shop.money.read']);
    const gql = async (shopId: number) =>
      (
        await fetch(`${t.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}`, 'x-shop-id': String(shopId) },
          body: JSON.stringify({ query: '{ me { memberships { shopId shopName } permissions } }' }),
        }).then((r) => r.json() as Promise<{ data: any }>)
      ).data.me;
    expect(await gql(b.id)).toEqual({ memberships: [{ shopId: a.id, shopName: a.name }, { shopId: b.id, shopName: b.name }], permissions: ['SHOP_ORDERS_READ', 'SHOP_INVOICES_ISSUE', 'SHOP_MONEY_READ'] });
    // Customers and platform staff: their own permissions, and no memberships.
    expect((await t.api('GET', '/api/me', as(await newCustomer(t)))).body).toMatchObject({ memberships: [], permissions: ['customer'] });
    const admin = (await t.api('GET', '/api/me', as(await newAdmin(t)))).body;
    expect(admin.permissions).toEqual(expect.arrayContaining(['platform.shops.manage', 'platform.audit.read', 'ops.read']));
    expect(admin.permissions).not.toContain('customer');
  });

  it('names the shop of a websocket in its connection parameters, where a browser cannot send X-Shop-Id', async () => {
    const [a, b] = [await newShop(t), await newShop(t)];
    const member = await newMember(t, a.id, ShopRole.Manager);
    await addMembership(t, member.id, b.id, ShopRole.Manager);
    const customer = await newCustomer(t);
    const EVENTS = 'subscription { events(types: [ORDER_PLACED]) { shopIds payload { ... on OrderPlacedEventPayload { orderId } } } }';
    const inB = await subscribe(t, EVENTS, { token: member.token, shopId: b.id });
    const unnamed = await subscribe(t, EVENTS, { token: member.token });
    const notMine = await subscribe(t, EVENTS, { token: member.token, shopId: (await newShop(t)).id });
    await commitEvents(t, [orderPlaced(a.id, customer.id, 901), orderPlaced(b.id, customer.id, 902)]);
    // Only the named shop's events; naming none, or a shop not one's own, acts for no shop.
    expect(await inB.next('events')).toEqual({ shopIds: [b.id], payload: { orderId: 902 } });
    for (const refused of [unnamed, notMine]) {
      // Refused when it subscribes: an error result, or the operation's error (graphql-ws gives either).
      await waitFor(() => refused.results.length > 0 || refused.error !== null, 5000, 'the refusal');
      const errors = (refused.results[0]?.errors ?? refused.error) as { extensions?: { code?: string } }[];
      expect(errors[0].extensions?.code).toBe('FORBIDDEN');
    }
    for (const live of [inB, unnamed, notMine]) await live.close();
  });

  it('reads roles per request: a changed role counts from the next request, with the same token', async () => {
    const shop = await newShop(t);
    const owner = await newOperator(t, shop.id);
    const member = await newMember(t, shop.id, ShopRole.Finance);
    expect((await t.api('GET', '/api/merchant/products', as(member))).status).toBe(403);
    const changed = await t.api('PUT', `/api/merchant/members/${member.id}/role`, { ...as(owner), body: { role: 'catalog' } });
    expect(changed.body).toMatchObject({ user_id: member.id, role: 'catalog' });
    expect((await t.api('GET', '/api/merchant/products', as(member))).status).toBe(200);
    expect((await t.api('GET', '/api/merchant/balances', as(member))).status).toBe(403);
  });
});

describe('invitations', () => {
  it('an owner invites by email; the invitee signs in with that email and accepts once; only the hash is stored', async () => {
    const shop = await newShop(t);
    const owner = await newOperator(t, shop.id);
    const invitee = await newCustomer(t);
    const sent = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: invitee.email.toUpperCase(), role: 'finance' } });
    expect(sent.status).toBe(201);
    expect(sent.body.invitation).toMatchObject({ shop_id: shop.id, email: invitee.email, role: 'finance' });
    const token: string = sent.body.token;
    const [stored] = await t.sql<{ token_hash: string }>(`select token_hash from member_invitation where id = ?`, [sent.body.invitation.id]);
    expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect((await t.api('GET', '/api/merchant/invitations', as(owner))).body.items.map((i: { id: number }) => i.id)).toEqual([sent.body.invitation.id]);

    // Someone else signed in cannot use the link, and nothing changes.
    const other = await newCustomer(t);
    const wrong = await t.api('POST', '/api/me/invitations/accept', { ...as(other), body: { token } });
    expect([wrong.status, wrong.body.error.code]).toEqual([422, 'INVITATION_NOT_YOURS']);
    expect(await t.sql(`select 1 from shop_membership where user_id = ?`, [other.id])).toEqual([]);

    const accepted = await t.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ shop_id: shop.id, user_id: invitee.id, role: 'finance' });
    // The same token the customer signed in with now acts for the shop, as finance.
    expect((await t.api('GET', '/api/merchant/balances', as(invitee))).status).toBe(200);
    expect((await t.api('GET', '/api/merchant/products', as(invitee))).status).toBe(403);
    expect((await t.api('GET', '/api/me', as(invitee))).body).toMatchObject({ role: 'shop_operator', shop_id: shop.id });

    const again = await t.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token } });
    expect([again.status, again.body.error.code]).toEqual([404, 'INVITATION_INVALID']);
    expect((await t.api('GET', '/api/merchant/invitations', as(owner))).body.items).toEqual([]);
    const members = await t.api('GET', '/api/merchant/members', as(owner));
    expect(members.body.items.map((m: { user_id: number; role: string }) => [m.user_id, m.role])).toEqual([[owner.id, 'owner'], [invitee.id, 'finance']]);
  });

  it('an expired, revoked or unknown link does not work, and two tabs accepting at once give one membership', async () => {
    const shop = await newShop(t);
    const owner = await newOperator(t, shop.id);
    const invite = async (email: string) => (await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email, role: 'support' } })).body;
    const late = await newCustomer(t);
    const lateInvite = await invite(late.email);
    await t.sql(`update member_invitation set expires_at = now() - interval '1 second' where id = ?`, [lateInvite.invitation.id]);
    expect((await t.api('POST', '/api/me/invitations/accept', { ...as(late), body: { token: lateInvite.token } })).body.error.code).toBe('INVITATION_INVALID');

    const revokedUser = await newCustomer(t);
    const revoked = await invite(revokedUser.email);
    expect((await t.api('DELETE', `/api/merchant/invitations/${revoked.invitation.id}`, as(owner))).status).toBe(204);
    expect((await t.api('POST', '/api/me/invitations/accept', { ...as(revokedUser), body: { token: revoked.token } })).body.error.code).toBe('INVITATION_INVALID');
    expect((await t.api('POST', '/api/me/invitations/accept', { ...as(revokedUser), body: { token: randomBytes(32).toString('base64url') } })).body.error.code).toBe('INVITATION_INVALID');

    const twice = await newCustomer(t);
    const link = await invite(twice.email);
    const answers = await Promise.all([1, 2].map(() => t.api('POST', '/api/me/invitations/accept', { ...as(twice), body: { token: link.token } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    expect(await t.sql(`select role from shop_membership where user_id = ?`, [twice.id])).toEqual([{ role: 'support' }]);
  });

  it('only a role that manages members invites; bad input is a 400 and stores nothing; a member is not invited twice', async () => {
    const shop = await newShop(t);
    const owner = await newOperator(t, shop.id);
    const manager = await newMember(t, shop.id, ShopRole.Manager);
    const refused = await t.api('POST', '/api/merchant/invitations', { ...as(manager), body: { email: 'x@example.test', role: 'catalog' } });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    // The manager sees the staff, but does not change it.
    expect((await t.api('GET', '/api/merchant/members', as(manager))).status).toBe(200);
    for (const body of [{ email: 'not an email', role: 'catalog' }, { email: 'y@example.test', role: 'emperor' }, { email: 'y@example.test' }]) {
      const res = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const dup = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: manager.email, role: 'catalog' } });
    expect([dup.status, dup.body.error.code]).toEqual([409, 'ALREADY_MEMBER']);
    expect(await t.sql(`select 1 from member_invitation where shop_id = ?`, [shop.id])).toEqual([]);
  });

  it('platform staff cannot join a shop', async () => {
    const shop = await newShop(t);
    const owner = await newOperator(t, shop.id);
    const admin = await newAdmin(t);
    const link = (await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: admin.email, role: 'manager' } })).body;
    const res = await t.api('POST', '/api/me/invitations/accept', { ...as(admin), body: { token: link.token } });
    expect([res.status, res.body.error.code]).toEqual([409, 'INVITATION_NOT_FOR_STAFF']);
    expect(await t.sql(`select 1 from shop_membership where user_id = ?`, [admin.id])).toEqual([]);
  });
});

describe('changing and removing members', () => {
  it('the last owner can be neither demoted nor removed; a removed member acts for the shop no more', async () => {
    const shop = await newShop(t);
    const owner = await newOperator(t, shop.id);
    const demote = await t.api('PUT', `/api/merchant/members/${owner.id}/role`, { ...as(owner), body: { role: 'manager' } });
    expect([demote.status, demote.body.error.code]).toEqual([409, 'LAST_OWNER']);
    const leave = await t.api('DELETE', `/api/merchant/members/${owner.id}`, as(owner));
    expect([leave.status, leave.body.error.code]).toEqual([409, 'LAST_OWNER']);
    expect(await owners(shop.id)).toBe(1);

    const clerk = await newMember(t, shop.id, ShopRole.Fulfilment);
    expect((await t.api('GET', '/api/merchant/orders', as(clerk))).status).toBe(200);
    expect((await t.api('DELETE', `/api/merchant/members/${clerk.id}`, as(owner))).status).toBe(204);
    expect((await t.api('GET', '/api/merchant/orders', as(clerk))).status).toBe(403);
    const gone = await t.api('DELETE', `/api/merchant/members/${clerk.id}`, as(owner));
    expect([gone.status, gone.body.error.code]).toEqual([404, 'NOT_FOUND']);

    // With a second owner, the first may step down.
    const second = await newMember(t, shop.id, ShopRole.Owner);
    expect((await t.api('PUT', `/api/merchant/members/${owner.id}/role`, { ...as(second), body: { role: 'manager' } })).status).toBe(200);
    expect(await owners(shop.id)).toBe(1);
  });

  it('the last two owners removing (or demoting) each other at the same moment: exactly one succeeds and one owner remains', async () => {
    for (let round = 0; round < 6; round++) {
      const shop = await newShop(t);
      const [a, b] = [await newOperator(t, shop.id), await newMember(t, shop.id, ShopRole.Owner)];
      const demoting = round % 2 === 1;
      const [ab, ba] = await Promise.all([
        demoting ? t.api('PUT', `/api/merchant/members/${b.id}/role`, { ...as(a), body: { role: 'support' } }) : t.api('DELETE', `/api/merchant/members/${b.id}`, as(a)),
        demoting ? t.api('PUT', `/api/merchant/members/${a.id}/role`, { ...as(b), body: { role: 'support' } }) : t.api('DELETE', `/api/merchant/members/${a.id}`, as(b)),
      ]);
      const outcomes = [ab, ba].map((r) => (r.status < 300 ? 'done' : `${r.status} ${r.body.error.code}`));
      // The second in line either finds itself no longer an owner (403) or would remove the last one (409).
      expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
      expect(['403 FORBIDDEN', '409 LAST_OWNER']).toContain(outcomes.find((o) => o !== 'done'));
      expect(await owners(shop.id)).toBe(1);
    }
  });
});

describe('over GraphQL', () => {
  it('lists the members as REST does, and answers a refusal as a typed error', async () => {
    const shop = await newShop(t);
    const owner = await newOperator(t, shop.id);
    await newMember(t, shop.id, ShopRole.Support);
    const rest = (await t.api('GET', '/api/merchant/members', as(owner))).body.items;
    const gql = await t.gql('{ shopMembers { userId email role } }', {}, owner.token);
    expect(gql.data.shopMembers).toEqual(rest.map((m: any) => ({ userId: m.user_id, email: m.email, role: m.role.toUpperCase() })));

    const last = await t.gql(`mutation ($id: Int!) { removeMember(input: { userId: $id }) { userId errors { code } } }`, { id: owner.id }, owner.token);
    expect(last.data.removeMember).toEqual({ userId: null, errors: [{ code: 'LAST_OWNER' }] });
    const invited = await t.gql(`mutation { inviteMember(input: { email: "gql@example.test", role: CATALOG }) { sent { token invitation { role } } errors { code } } }`, {}, owner.token);
    expect(invited.data.inviteMember.sent.invitation.role).toBe('CATALOG');
  });
});

describe('migration StaffRoles', () => {
  it('makes each shop operator the owner of their shop and each platform admin a platform admin', async () => {
    const dbName = `${PREFIX}_staffmig_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${dbName}`);
    const orm = await openOrm({ clientUrl: databaseUrl(dbName), poolSize: 1 });
    const db = new pg.Client({ connectionString: databaseUrl(dbName) });
    try {
      await orm.migrator.up({ to: 'Migration20261203610000DisabledAccounts' });
      await db.connect();
      const shop = (await db.query(`insert into shop (slug, name, created_at) values ('old', 'Old', now()) returning id`)).rows[0];
      const insert = (email: string, role: string, shopId: number | null) =>
        db.query(`insert into app_user (email, password_hash, display_name, role, shop_id, created_at) values ($1, 'x', 'U', $2, $3, now()) returning id`, [email, role, shopId]);
      const operator = (await insert('op@example.test', 'shop_operator', shop.id)).rows[0];
      const admin = (await insert('admin@example.test', 'platform_admin', null)).rows[0];
      const customer = (await insert('c@example.test', 'customer', null)).rows[0];
      await orm.migrator.up();
      expect((await db.query(`select user_id, shop_id, role from shop_membership order by id`)).rows).toEqual([{ user_id: operator.id, shop_id: shop.id, role: 'owner' }]);
      expect((await db.query(`select id, role, platform_role from app_user order by id`)).rows).toEqual([
        { id: operator.id, role: 'shop_operator', platform_role: null },
        { id: admin.id, role: 'platform_admin', platform_role: 'admin' },
        { id: customer.id, role: 'customer', platform_role: null },
      ]);
    } finally {
      await db.end().catch(() => undefined);
      await orm.close();
      await adminQuery(`drop database if exists ${dbName} with (force)`);
    }
  });
});
