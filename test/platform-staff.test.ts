import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newMember, newShop, newStaff, type TestUser } from './support/fixtures.js';
import { PlatformRole } from '../src/entities/user.entity.js';
import { ShopRole } from '../src/entities/shop-membership.entity.js';

/**
 * The platform's own staff (issue 41, "platform roles likewise"): invitations by a one-time link,
 * role changes and removals over both doors, the refusals with their codes, and the rule that the
 * platform always keeps an admin, even when its last two admins remove or demote each other at the
 * same moment.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const as = (user: TestUser) => ({ token: user.token });
const invite = async (admin: TestUser, email: string, role = 'support') => {
  const res = await t.api('POST', '/api/admin/staff-invitations', { ...as(admin), body: { email, role } });
  expect(res.status).toBe(201);
  return res.body as { invitation: { id: number; email: string; role: string }; token: string };
};
const accept = (user: TestUser, token: string) => t.api('POST', '/api/me/staff-invitations/accept', { ...as(user), body: { token } });
const activeAdmins = async () => (await t.sql<{ id: number }>(`select id from app_user where platform_role = 'admin' and disabled_at is null order by id`)).map((r) => r.id);
const account = async (userId: number) => (await t.sql<{ role: string; platform_role: string | null }>(`select role, platform_role from app_user where id = ?`, [userId]))[0];
/** Leaves `keep` the only active admins (the other admins of this database become support). */
const onlyAdmins = (keep: number[]) => t.sql(`update app_user set platform_role = 'support' where platform_role = 'admin' and not (id = any(?::int[]))`, [`{${keep.join(',')}}`]);

describe('invitations', () => {
  it('an admin invites by email; the invitee signs in with that email and accepts once; only the hash is stored', async () => {
    const admin = await newAdmin(t);
    const invitee = await newCustomer(t);
    const sent = await invite(admin, invitee.email.toUpperCase());
    expect(sent.invitation).toMatchObject({ email: invitee.email, role: 'support' });
    const [stored] = await t.sql<{ token_hash: string }>(`select token_hash from staff_invitation where id = ?`, [sent.invitation.id]);
    expect(stored.token_hash).toBe(createHash('sha256').update(sent.token).digest('hex'));
    expect((await t.api('GET', '/api/admin/staff-invitations', as(admin))).body.items.map((i: { id: number }) => i.id)).toContain(sent.invitation.id);

    // Someone else signed in cannot use the link, and nothing changes.
    const other = await newCustomer(t);
    const wrong = await accept(other, sent.token);
    expect([wrong.status, wrong.body.error.code]).toEqual([422, 'INVITATION_NOT_YOURS']);
    expect(await account(other.id)).toEqual({ role: 'customer', platform_role: null });

    const accepted = await accept(invitee, sent.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ user_id: invitee.id, email: invitee.email, role: 'support', disabled: false });
    // The token the customer signed in with now acts as support staff: customers yes, staff no.
    expect((await t.api('GET', '/api/me', as(invitee))).body).toMatchObject({ role: 'platform_admin', platform_role: 'support' });
    expect((await t.api('GET', '/api/admin/customers', as(invitee))).status).toBe(200);
    expect((await t.api('GET', '/api/admin/staff', as(invitee))).status).toBe(403);

    const again = await accept(invitee, sent.token);
    expect([again.status, again.body.error.code]).toEqual([404, 'INVITATION_INVALID']);
    expect((await t.api('GET', '/api/admin/staff-invitations', as(admin))).body.items.map((i: { id: number }) => i.id)).not.toContain(sent.invitation.id);
    const staff = (await t.api('GET', '/api/admin/staff', as(admin))).body.items;
    expect(staff.find((m: { user_id: number }) => m.user_id === invitee.id)).toMatchObject({ role: 'support', disabled: false });
    expect(staff.find((m: { user_id: number }) => m.user_id === admin.id)).toMatchObject({ role: 'admin' });
  });

  it('an expired, revoked or unknown link does not work, and two tabs accepting at once give one success, several rounds', async () => {
    const admin = await newAdmin(t);
    const late = await newCustomer(t);
    const lateInvite = await invite(admin, late.email);
    await t.sql(`update staff_invitation set expires_at = now() - interval '1 second' where id = ?`, [lateInvite.invitation.id]);
    expect((await accept(late, lateInvite.token)).body.error.code).toBe('INVITATION_INVALID');

    const revokedUser = await newCustomer(t);
    const revoked = await invite(admin, revokedUser.email);
    expect((await t.api('DELETE', `/api/admin/staff-invitations/${revoked.invitation.id}`, as(admin))).status).toBe(204);
    const twiceRevoked = await t.api('DELETE', `/api/admin/staff-invitations/${revoked.invitation.id}`, as(admin));
    expect([twiceRevoked.status, twiceRevoked.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await accept(revokedUser, revoked.token)).body.error.code).toBe('INVITATION_INVALID');
    expect((await accept(revokedUser, randomBytes(32).toString('base64url'))).body.error.code).toBe('INVITATION_INVALID');
    expect(await account(revokedUser.id)).toEqual({ role: 'customer', platform_role: null });

    for (let round = 0; round < 4; round++) {
      const twice = await newCustomer(t);
      const link = await invite(admin, twice.email, 'finance');
      const answers = await Promise.all([1, 2].map(() => accept(twice, link.token)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
      expect(await account(twice.id)).toEqual({ role: 'platform_admin', platform_role: 'finance' });
      expect(await t.sql(`select accepted_by_id from staff_invitation where id = ?`, [link.invitation.id])).toEqual([{ accepted_by_id: twice.id }]);
    }
  });

  it("refuses an email already on the staff, an account already on it, and a shop's member", async () => {
    const admin = await newAdmin(t);
    const finance = await newStaff(t, PlatformRole.Finance);
    const dup = await t.api('POST', '/api/admin/staff-invitations', { ...as(admin), body: { email: finance.email, role: 'content' } });
    expect([dup.status, dup.body.error.code]).toEqual([409, 'ALREADY_STAFF']);

    // Two invitations for one customer: the second finds them on the staff already.
    const customer = await newCustomer(t);
    const [first, second] = [await invite(admin, customer.email, 'content'), await invite(admin, customer.email, 'admin')];
    expect((await accept(customer, first.token)).status).toBe(200);
    const already = await accept(customer, second.token);
    expect([already.status, already.body.error.code]).toEqual([409, 'ALREADY_STAFF']);
    expect(await account(customer.id)).toEqual({ role: 'platform_admin', platform_role: 'content' });

    const shop = await newShop(t);
    const member = await newMember(t, shop.id, ShopRole.Catalog);
    const link = await invite(admin, member.email);
    const refused = await accept(member, link.token);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'INVITATION_NOT_FOR_SHOP_MEMBER']);
    expect(await account(member.id)).toEqual({ role: 'shop_operator', platform_role: null });
    // Refused, the link still works for a later try (it was not used).
    expect((await t.api('GET', '/api/admin/staff-invitations', as(admin))).body.items.map((i: { id: number }) => i.id)).toContain(link.invitation.id);
  });

  it('a shop invitation and a staff invitation accepted at the same moment: one wins, never both, several rounds', async () => {
    const admin = await newAdmin(t);
    const shop = await newShop(t);
    const owner = await newMember(t, shop.id, ShopRole.Owner);
    for (let round = 0; round < 6; round++) {
      const person = await newCustomer(t);
      const staffLink = await invite(admin, person.email);
      const shopLink = (await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: person.email, role: 'catalog' } })).body;
      const [asStaff, asMember] = await Promise.all([accept(person, staffLink.token), t.api('POST', '/api/me/invitations/accept', { ...as(person), body: { token: shopLink.token } })]);
      const outcome = [asStaff, asMember].map((r) => (r.status < 300 ? 'done' : r.body.error.code));
      const memberships = (await t.sql<{ n: number }>('select count(*)::int as n from shop_membership where user_id = ?', [person.id]))[0].n;
      if (outcome[0] === 'done') {
        expect(outcome[1]).toBe('INVITATION_NOT_FOR_STAFF');
        expect([await account(person.id), memberships]).toEqual([{ role: 'platform_admin', platform_role: 'support' }, 0]);
      } else {
        expect(outcome).toEqual(['INVITATION_NOT_FOR_SHOP_MEMBER', 'done']);
        expect([await account(person.id), memberships]).toEqual([{ role: 'shop_operator', platform_role: null }, 1]);
      }
    }
  });

  it('only an admin manages the staff; bad input is a 400 and changes nothing', async () => {
    const admin = await newAdmin(t);
    const target = await newStaff(t, PlatformRole.Content);
    for (const role of [PlatformRole.Finance, PlatformRole.Support, PlatformRole.Content]) {
      const staff = await newStaff(t, role);
      for (const [method, path, body] of [
        ['GET', '/api/admin/staff', undefined],
        ['GET', '/api/admin/staff-invitations', undefined],
        ['POST', '/api/admin/staff-invitations', { email: 'x@example.test', role: 'admin' }],
        ['PUT', `/api/admin/staff/${target.id}/role`, { role: 'admin' }],
        ['DELETE', `/api/admin/staff/${target.id}`, undefined],
      ] as const) {
        const res = await t.api(method, path, { ...as(staff), body });
        expect([method, path, res.status, res.body.error.code]).toEqual([method, path, 403, 'FORBIDDEN']);
      }
    }
    const shopOwner = await newMember(t, (await newShop(t)).id, ShopRole.Owner);
    expect((await t.api('GET', '/api/admin/staff', as(shopOwner))).status).toBe(403);
    expect((await t.api('GET', '/api/admin/staff', {})).status).toBe(401);

    const before = (await t.sql<{ n: number }>('select count(*)::int as n from staff_invitation'))[0].n;
    for (const body of [{ email: 'not an email', role: 'support' }, { email: 'y@example.test', role: 'emperor' }, { email: 'y@example.test' }, { email: 'y@example.test', role: 'support', extra: 1 }]) {
      const res = await t.api('POST', '/api/admin/staff-invitations', { ...as(admin), body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await t.sql<{ n: number }>('select count(*)::int as n from staff_invitation'))[0].n).toBe(before);
    for (const [method, path, body] of [
      ['PUT', `/api/admin/staff/${target.id}/role`, { role: 'emperor' }],
      ['PUT', `/api/admin/staff/${target.id}/role`, {}],
      ['PUT', '/api/admin/staff/abc/role', { role: 'admin' }],
      ['DELETE', '/api/admin/staff/0', undefined],
      ['DELETE', '/api/admin/staff-invitations/x', undefined],
      ['POST', '/api/me/staff-invitations/accept', { token: 'short' }],
    ] as const) {
      const res = await t.api(method, path, { ...as(admin), body });
      expect([method, path, res.status, res.body.error.code]).toEqual([method, path, 400, 'VALIDATION_FAILED']);
    }
    expect(await account(target.id)).toEqual({ role: 'platform_admin', platform_role: 'content' });
  });
});

describe('changing and removing staff', () => {
  it("changes a role from the member's next request; a removed member becomes a customer and their old token gets 401", async () => {
    const admin = await newAdmin(t);
    const member = await newStaff(t, PlatformRole.Content);
    expect((await t.api('GET', '/api/admin/customers', as(member))).status).toBe(403);
    const changed = await t.api('PUT', `/api/admin/staff/${member.id}/role`, { ...as(admin), body: { role: 'support' } });
    expect([changed.status, changed.body]).toMatchObject([200, { user_id: member.id, role: 'support' }]);
    expect((await t.api('GET', '/api/admin/customers', as(member))).status).toBe(200);

    const customer = await newCustomer(t);
    const notStaff = await t.api('PUT', `/api/admin/staff/${customer.id}/role`, { ...as(admin), body: { role: 'support' } });
    expect([notStaff.status, notStaff.body.error.code]).toEqual([404, 'NOT_FOUND']);

    const removed = await t.api('DELETE', `/api/admin/staff/${member.id}`, as(admin));
    expect(removed.status).toBe(204);
    expect(await account(member.id)).toEqual({ role: 'customer', platform_role: null });
    const stale = await t.api('GET', '/api/me', as(member));
    expect(stale.status).toBe(401);
    expect(await t.sql(`select 1 from auth_token where user_id = ? and revoked_at is null`, [member.id])).toEqual([]);
    const gone = await t.api('DELETE', `/api/admin/staff/${member.id}`, as(admin));
    expect([gone.status, gone.body.error.code]).toEqual([404, 'NOT_FOUND']);

    // Each write is in the audit log under its one name, with the admin as actor.
    const entries = await t.sql<{ operation: string; actor_id: number; actor_role: string }>(
      `select operation, actor_id, actor_role from audit_entry where target_type = 'User' and target_id = ? order by id`,
      [String(member.id)],
    );
    expect(entries).toEqual([
      { operation: 'changeStaffRole', actor_id: admin.id, actor_role: 'platform_admin' },
      { operation: 'removeStaff', actor_id: admin.id, actor_role: 'platform_admin' },
    ]);
  });

  it('the last admin can be neither demoted nor removed; with a second admin, the first may step down', async () => {
    const admin = await newAdmin(t);
    await onlyAdmins([admin.id]);
    const demote = await t.api('PUT', `/api/admin/staff/${admin.id}/role`, { ...as(admin), body: { role: 'finance' } });
    expect([demote.status, demote.body.error.code]).toEqual([409, 'LAST_ADMIN']);
    const leave = await t.api('DELETE', `/api/admin/staff/${admin.id}`, as(admin));
    expect([leave.status, leave.body.error.code]).toEqual([409, 'LAST_ADMIN']);
    // A disabled admin is no admin that could manage the staff: it does not count.
    const disabled = await newAdmin(t);
    await t.sql(`update app_user set disabled_at = now(), disabled_reason = 'left' where id = ?`, [disabled.id]);
    expect((await t.api('DELETE', `/api/admin/staff/${admin.id}`, as(admin))).body.error.code).toBe('LAST_ADMIN');
    expect(await activeAdmins()).toEqual([admin.id]);

    const second = await newAdmin(t);
    expect((await t.api('PUT', `/api/admin/staff/${admin.id}/role`, { ...as(second), body: { role: 'finance' } })).status).toBe(200);
    expect(await activeAdmins()).toEqual([second.id]);
  });

  it('the last two admins removing (or demoting) each other at the same moment: exactly one succeeds and one admin remains, several rounds', async () => {
    for (let round = 0; round < 8; round++) {
      const [a, b] = [await newAdmin(t), await newAdmin(t)];
      await onlyAdmins([a.id, b.id]);
      const demoting = round % 2 === 1;
      const [ab, ba] = await Promise.all([
        demoting ? t.api('PUT', `/api/admin/staff/${b.id}/role`, { ...as(a), body: { role: 'support' } }) : t.api('DELETE', `/api/admin/staff/${b.id}`, as(a)),
        demoting ? t.api('PUT', `/api/admin/staff/${a.id}/role`, { ...as(b), body: { role: 'support' } }) : t.api('DELETE', `/api/admin/staff/${a.id}`, as(b)),
      ]);
      const outcomes = [ab, ba].map((r) => (r.status < 300 ? 'done' : `${r.status} ${r.body.error.code}`));
      // The second in line finds itself no admin any more (403, or 401 once removed) or would leave none (409).
      expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
      expect(['401 TOKEN_INVALID', '403 FORBIDDEN', '409 LAST_ADMIN']).toContain(outcomes.find((o) => o !== 'done'));
      const left = await activeAdmins();
      expect(left).toHaveLength(1);
      expect([a.id, b.id]).toContain(left[0]);
    }
  });
});

describe('over GraphQL', () => {
  it('lists the staff as REST does, and answers refusals as typed errors', async () => {
    const admin = await newAdmin(t);
    await newStaff(t, PlatformRole.Content);
    const rest = (await t.api('GET', '/api/admin/staff', as(admin))).body.items;
    const gql = await t.gql('{ platformStaff { userId email role disabled } }', {}, admin.token);
    expect(gql.data.platformStaff).toEqual(rest.map((m: any) => ({ userId: m.user_id, email: m.email, role: m.role.toUpperCase(), disabled: m.disabled })));

    await onlyAdmins([admin.id]);
    const last = await t.gql(`mutation ($id: Int!) { removeStaff(input: { userId: $id }) { userId errors { code } } }`, { id: admin.id }, admin.token);
    expect(last.data.removeStaff).toEqual({ userId: null, errors: [{ code: 'LAST_ADMIN' }] });

    const customer = await newCustomer(t);
    const invited = await t.gql(`mutation ($email: String!) { inviteStaff(input: { email: $email, role: FINANCE }) { sent { token invitation { role } } errors { code } } }`, { email: customer.email }, admin.token);
    expect(invited.data.inviteStaff.sent.invitation.role).toBe('FINANCE');
    const token = invited.data.inviteStaff.sent.token;
    const ACCEPT = `mutation ($token: String!) { acceptStaffInvitation(input: { token: $token }) { member { userId role } errors { code } } }`;
    expect((await t.gql(ACCEPT, { token }, customer.token)).data.acceptStaffInvitation).toEqual({ member: { userId: customer.id, role: 'FINANCE' }, errors: [] });
    expect((await t.gql(ACCEPT, { token }, customer.token)).data.acceptStaffInvitation).toEqual({ member: null, errors: [{ code: 'INVITATION_INVALID' }] });

    const support = await newStaff(t, PlatformRole.Support);
    const refused = await t.gql('{ platformStaff { userId } }', {}, support.token);
    expect(refused.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });
});
