import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { startSmtpStandIn, type SmtpStandIn } from './support/smtp-stand-in.js';
import { loadConfig } from '../src/config.js';

/**
 * Invitations are emailed (issue 41): a shop's owner and a platform admin invite by email, and the
 * invitee receives the link through the mall's mail server (here a stand-in speaking SMTP, reached
 * through nodemailer as a real one would be). The mail leaves only once the invitation is committed;
 * a mail server that refuses or cannot be reached leaves the invitation standing and says so
 * (`email_sent: false`), so the inviter passes the link on.
 */
let t: TestApp;
let smtp: SmtpStandIn;
const PUBLIC_URL = 'https://mall.example';
beforeAll(async () => {
  smtp = await startSmtpStandIn();
  const mail = loadConfig({ NODE_ENV: 'test', SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'Mallfront <no-reply@mall.example>' }).mail;
  t = await startTestApp({ mail });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const as = (user: TestUser) => ({ token: user.token });
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));
/** The link in a mail's text, and its token. */
const linkIn = (text: string, page: string) => {
  const match = new RegExp(`${PUBLIC_URL}/${page}\\?token=([\\w-]+)`).exec(text);
  expect(match, text).not.toBeNull();
  return match![1];
};

it("emails a shop's invitation with a link that accepts it, once it is committed", async () => {
  const shop = await newShop(t, { name: 'Harbor Lights' });
  const owner = await newOperator(t, shop.id);
  const invitee = await newCustomer(t);
  const sent = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: invitee.email, role: 'finance' } });
  expect(sent.status).toBe(201);
  expect(sent.body.email_sent).toBe(true);
  const [mail] = mailsTo(invitee.email);
  expect(mail.from).toBe('no-reply@mall.example');
  expect(mail.raw).toMatch(/^Subject: Join Harbor Lights on Mallfront/m);
  expect(mail.text).toContain('as finance');
  expect(mail.text).toContain(invitee.email);
  // The mailed link is the answer's token, and it accepts the invitation.
  expect(linkIn(mail.text, 'join-shop')).toBe(sent.body.token);
  const accepted = await t.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token: linkIn(mail.text, 'join-shop') } });
  expect(accepted.status).toBe(200);
  expect(accepted.body).toMatchObject({ user_id: invitee.id, role: 'finance', shop_id: shop.id });

  // A refused invitation (already a member) is rolled back and sends nothing; so is bad input.
  const again = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: invitee.email, role: 'finance' } });
  expect([again.status, again.body.error.code]).toEqual([409, 'ALREADY_MEMBER']);
  const bad = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: 'not-an-address', role: 'finance' } });
  expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  expect(mailsTo(invitee.email)).toHaveLength(1);
  expect(mailsTo('not-an-address')).toHaveLength(0);
});

it("emails a platform staff invitation over GraphQL too, with the staff's link", async () => {
  const admin = await newAdmin(t);
  const invitee = await newCustomer(t);
  const res = await t.gql(
    `mutation($input: InviteStaffInput!) { inviteStaff(input: $input) { sent { token emailSent invitation { email } } userErrors { code } } }`,
    { input: { email: invitee.email, role: 'SUPPORT' } },
    admin.token,
  );
  expect(res.errors).toBeUndefined();
  const sent = res.data.inviteStaff.sent;
  expect(sent.emailSent).toBe(true);
  const [mail] = mailsTo(invitee.email);
  expect(mail.raw).toMatch(/^Subject: Join the Mallfront platform's staff on Mallfront/m);
  expect(linkIn(mail.text, 'join-staff')).toBe(sent.token);
  const accepted = await t.api('POST', '/api/me/staff-invitations/accept', { ...as(invitee), body: { token: sent.token } });
  expect(accepted.status).toBe(200);
});

it('keeps the invitation when the mail server refuses the message or cannot be reached, and says the email did not go', async () => {
  const shop = await newShop(t);
  const owner = await newOperator(t, shop.id);
  smtp.refuse(true);
  const refused = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: 'refused@mallfront.test', role: 'catalog' } });
  smtp.refuse(false);
  expect([refused.status, refused.body.email_sent]).toEqual([201, false]);
  expect(mailsTo('refused@mallfront.test')).toHaveLength(0);

  // A mail server that is gone: the invitation is made all the same, its link works, the answer says no email went.
  const unreachable = await startTestApp({ mail: loadConfig({ NODE_ENV: 'test', SMTP_URL: 'smtp://127.0.0.1:9', PUBLIC_URL }).mail }, { database: t.dbName });
  try {
    const invitee = await newCustomer(unreachable);
    const sent = await unreachable.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: invitee.email, role: 'catalog' } });
    expect([sent.status, sent.body.email_sent]).toEqual([201, false]);
    const listed = await unreachable.api('GET', '/api/merchant/invitations', as(owner));
    expect(listed.body.items.map((i: { email: string }) => i.email)).toEqual(expect.arrayContaining(['refused@mallfront.test', invitee.email]));
    const accepted = await unreachable.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token: sent.body.token } });
    expect(accepted.status).toBe(200);
  } finally {
    await unreachable.close();
  }
});

it('sends an open invitation again with a new link, over both doors: the old link stops working, the new one accepts', async () => {
  const shop = await newShop(t, { name: 'Second Chance' });
  const owner = await newOperator(t, shop.id);
  const invitee = await newCustomer(t);
  const first = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: invitee.email, role: 'support' } });
  const again = await t.api('POST', `/api/merchant/invitations/${first.body.invitation.id}/resend`, as(owner));
  expect(again.status).toBe(200);
  expect([again.body.email_sent, again.body.invitation.id, again.body.invitation.email]).toEqual([true, first.body.invitation.id, invitee.email]);
  expect(again.body.token).not.toBe(first.body.token);
  const mails = mailsTo(invitee.email);
  expect(mails).toHaveLength(2);
  expect(linkIn(mails[1].text, 'join-shop')).toBe(again.body.token);
  // The first link was what leaked or got lost: it works no more.
  const stale = await t.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token: first.body.token } });
  expect([stale.status, stale.body.error.code]).toEqual([404, 'INVITATION_INVALID']);
  // Over GraphQL too, and only the shop's own open invitations.
  const third = await t.gql(
    'mutation($input: ResendInvitationInput!) { resendInvitation(input: $input) { sent { token emailSent } userErrors { code } } }',
    { input: { invitationId: first.body.invitation.id } },
    owner.token,
  );
  expect(third.data.resendInvitation.sent.emailSent).toBe(true);
  const otherOwner = await newOperator(t, (await newShop(t)).id);
  const foreign = await t.api('POST', `/api/merchant/invitations/${first.body.invitation.id}/resend`, as(otherOwner));
  expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
  const accepted = await t.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token: third.data.resendInvitation.sent.token } });
  expect(accepted.status).toBe(200);
  const used = await t.api('POST', `/api/merchant/invitations/${first.body.invitation.id}/resend`, as(owner));
  expect([used.status, used.body.error.code]).toEqual([404, 'NOT_FOUND']);
  expect(mailsTo(invitee.email)).toHaveLength(3);

  // The platform's staff invitations, likewise.
  const admin = await newAdmin(t);
  const staffInvitee = await newCustomer(t);
  const staffFirst = await t.api('POST', '/api/admin/staff-invitations', { ...as(admin), body: { email: staffInvitee.email, role: 'content' } });
  const staffAgain = await t.gql(
    'mutation($input: ResendStaffInvitationInput!) { resendStaffInvitation(input: $input) { sent { token emailSent invitation { id } } userErrors { code } } }',
    { input: { invitationId: staffFirst.body.invitation.id } },
    admin.token,
  );
  const resent = staffAgain.data.resendStaffInvitation.sent;
  expect([resent.emailSent, resent.invitation.id]).toEqual([true, staffFirst.body.invitation.id]);
  expect(linkIn(mailsTo(staffInvitee.email)[1].text, 'join-staff')).toBe(resent.token);
  expect((await t.api('POST', '/api/me/staff-invitations/accept', { ...as(staffInvitee), body: { token: staffFirst.body.token } })).status).toBe(404);
  const bad = await t.api('POST', '/api/admin/staff-invitations/0/resend', as(admin));
  expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  expect((await t.api('POST', '/api/me/staff-invitations/accept', { ...as(staffInvitee), body: { token: resent.token } })).status).toBe(200);
});

it("records an acceptance in the audit log, as the one who joined and in the role they joined with", async () => {
  const shop = await newShop(t);
  const owner = await newOperator(t, shop.id);
  const invitee = await newCustomer(t);
  const sent = await t.api('POST', '/api/merchant/invitations', { ...as(owner), body: { email: invitee.email, role: 'fulfilment' } });
  const accepted = await t.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token: sent.body.token }, headers: { 'x-request-id': 'accept-audited-1' } });
  expect(accepted.status).toBe(200);
  const entries = await t.sql<{ actor_id: number; actor_role: string; shop_id: number; operation: string; target_type: string; action: string }>(
    'select actor_id, actor_role, shop_id, operation, target_type, action from audit_entry where request_id = ? order by id',
    ['accept-audited-1'],
  );
  expect(entries.map((e) => [e.target_type, e.action]).sort()).toEqual([['MemberInvitation', 'update'], ['ShopMembership', 'create'], ['User', 'update']]);
  for (const e of entries) expect([e.actor_id, e.actor_role, e.shop_id, e.operation]).toEqual([invitee.id, 'shop_fulfilment', shop.id, 'acceptInvitation']);

  const admin = await newAdmin(t);
  const joiner = await newCustomer(t);
  const staffSent = await t.api('POST', '/api/admin/staff-invitations', { ...as(admin), body: { email: joiner.email, role: 'finance' } });
  await t.api('POST', '/api/me/staff-invitations/accept', { ...as(joiner), body: { token: staffSent.body.token }, headers: { 'x-request-id': 'accept-audited-2' } });
  const staffEntries = await t.sql<{ actor_id: number; actor_role: string; target_type: string }>('select actor_id, actor_role, target_type from audit_entry where request_id = ? order by target_type', ['accept-audited-2']);
  expect(staffEntries).toEqual([
    { actor_id: joiner.id, actor_role: 'platform_finance', target_type: 'StaffInvitation' },
    { actor_id: joiner.id, actor_role: 'platform_finance', target_type: 'User' },
  ]);
  // A refused acceptance (the link is used now) records nothing.
  await t.api('POST', '/api/me/invitations/accept', { ...as(invitee), body: { token: sent.body.token }, headers: { 'x-request-id': 'accept-audited-3' } });
  expect(await t.sql('select id from audit_entry where request_id = ?', ['accept-audited-3'])).toHaveLength(0);
});
