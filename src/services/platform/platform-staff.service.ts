import { invitationEmail } from '../mail/invitation-email.js';
import { queueMail, sendQueued } from '../mail/mail-queue.js';

import type { SentStaffInvitationView, StaffInvitationView, StaffMemberView } from './staff-views.js';
import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, forbidden, notFound } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { PlatformRole, Role } from '../../entities/user.entity.js';
import { StaffInvitation } from '../../entities/staff-invitation.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission, requireUser } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { emailAddress, id, parseInput, z } from '../../shared/validate.js';
import { InvitationFields } from '../shops/invitation.inputs.js';
import { toDate } from '../../shared/values.js';
import { auditAs, auditedWrite } from '../../shared/audit.js';
import { ensureZeroBalances } from '../accounts/ledger.service.js';
import { AcceptLinkInput, linkTokenHash, newLink, refuseClosedLink, refuseOtherEmail } from '../../shared/one-time-link.js';

/** What a staff invitation's email says the invitee joins. */
const PLATFORM_STAFF = "the Mallfront platform's staff";

/**
 * The platform's own staff (issue 41, "platform roles likewise"): the one module that writes an
 * account's platform role and `staff_invitation`. An admin invites by email with a platform role and
 * a one-time link (as a shop's owner invites its members), changes roles and removes members; the
 * platform always keeps at least one admin. Every change of a member locks the admins' rows first,
 * so two admins demoting (or removing) each other at the same moment run one after the other, and
 * the second finds it is no admin any more. Staff and shop members are separate accounts
 * (docs/decisions.md, "Platform staff are not shop members").
 */

export { StaffInvitationView, StaffMemberView } from './staff-views.js';

export type SentStaffInvitation = SentStaffInvitationView;

export const InviteStaffInput = InvitationFields.extend({ role: z.enum(PlatformRole) });
export const AcceptStaffInvitationInput = AcceptLinkInput;
export const StaffRef = z.strictObject({ userId: id });
export const ChangeStaffRoleInput = StaffRef.extend({ role: z.enum(PlatformRole) });
const InvitationRef = z.strictObject({ invitationId: id });

async function staffViews(ctx: ServiceContext, userId?: number): Promise<StaffMemberView[]> {
  let rows = typedSql(ctx.em)
    .selectFrom('User')
    .select(['id', 'email', 'displayName', 'platformRole', 'staffSince', 'createdAt', 'disabledAt'])
    .where('role', '=', Role.PlatformAdmin);
  if (userId !== undefined) rows = rows.where('id', '=', userId);
  return (await rows.orderBy('id').execute()).map((u) => ({
    userId: u.id,
    email: u.email,
    displayName: u.displayName,
    role: u.platformRole as PlatformRole,
    since: toDate(u.staffSince ?? u.createdAt),
    disabled: u.disabledAt !== null,
  }));
}

/** The platform's staff with their roles, in the order their accounts were made. */
export async function listStaff(ctx: ServiceContext): Promise<StaffMemberView[]> {
  requirePlatformPermission(ctx, Permission.PlatformStaffManage);
  return staffViews(ctx);
}

export const inviteStaffRefusals = refusals('ALREADY_STAFF');

/**
 * Invites `email` to the platform's staff with a platform role: answers the link's token once (only
 * its SHA-256 is stored) and emails the invitee the link. An email already on the staff is refused.
 */
export async function inviteStaff(ctx: ServiceContext, input: unknown): Promise<SentStaffInvitation> {
  const admin = requirePlatformPermission(ctx, Permission.PlatformStaffManage);
  const data = parseInput(InviteStaffInput, input);
  const sent = await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const staff = await db.selectFrom('User').select('id').where('email', '=', data.email).where('role', '=', Role.PlatformAdmin).executeTakeFirst();
    if (staff) throw conflict('ALREADY_STAFF', `${data.email} is already on the platform's staff`, { user_id: staff.id });
    const { token, tokenHash, expiresAt: until } = newLink();
    const invitation = tx.em.create(StaffInvitation, { email: data.email, platformRole: data.role, tokenHash, invitedBy: admin.userId, expiresAt: until });
    await tx.em.flush();
    const { displayName: inviter } = await db.selectFrom('User').select('displayName').where('id', '=', admin.userId).executeTakeFirstOrThrow();
    const { id: invitationId, email, platformRole: role, expiresAt, createdAt } = invitation;
    // Queued with the invitation, tried once it is committed (see `inviteMember`).
    const mailId = await queueMail(tx, invitationEmail({ to: email, joining: PLATFORM_STAFF, role, inviter, link: ctx.wiring.mailer.link(`/join-staff?token=${token}`), expiresAt }));
    return { invitation: { id: invitationId, email, role, expiresAt, createdAt }, token, mailId };
  });
  return { invitation: sent.invitation, token: sent.token, emailSent: await sendQueued(ctx, sent.mailId) };
}

/** The open invitations (not used, not revoked, not expired), newest first. */
export async function listStaffInvitations(ctx: ServiceContext): Promise<StaffInvitationView[]> {
  requirePlatformPermission(ctx, Permission.PlatformStaffManage);
  const rows = await typedSql(ctx.em)
    .selectFrom('StaffInvitation')
    .select(['id', 'email', 'platformRole as role', 'expiresAt', 'createdAt'])
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, expiresAt: toDate(row.expiresAt), createdAt: toDate(row.createdAt) }));
}

export const resendStaffInvitationRefusals = refusals('NOT_FOUND');

/** Sends an open staff invitation again with a new link, the old one revoked by it (see `resendInvitation` of a shop's). */
export async function resendStaffInvitation(ctx: ServiceContext, input: unknown): Promise<SentStaffInvitation> {
  const admin = requirePlatformPermission(ctx, Permission.PlatformStaffManage);
  const { invitationId } = parseInput(InvitationRef, input);
  const { token, tokenHash, expiresAt: until } = newLink();
  const sent = await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const row = await auditedWrite(tx, { type: 'StaffInvitation', id: invitationId }, () =>
      db
        .updateTable('StaffInvitation')
        .set({ tokenHash, expiresAt: until })
        .where('id', '=', invitationId)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .returning(['id', 'email', 'platformRole as role', 'expiresAt', 'createdAt'])
        .executeTakeFirst(),
    );
    if (!row) throw notFound('Invitation', { invitation_id: invitationId });
    const { displayName: inviter } = await db.selectFrom('User').select('displayName').where('id', '=', admin.userId).executeTakeFirstOrThrow();
    const invitation = { ...row, expiresAt: toDate(row.expiresAt), createdAt: toDate(row.createdAt) };
    const mailId = await queueMail(tx, invitationEmail({ to: invitation.email, joining: PLATFORM_STAFF, role: invitation.role, inviter, link: ctx.wiring.mailer.link(`/join-staff?token=${token}`), expiresAt: invitation.expiresAt }));
    return { invitation, mailId };
  });
  return { invitation: sent.invitation, token, emailSent: await sendQueued(ctx, sent.mailId) };
}

export const revokeStaffInvitationRefusals = refusals('NOT_FOUND');

/** Withdraws an open invitation: its link stops working. */
export async function revokeStaffInvitation(ctx: ServiceContext, input: unknown): Promise<void> {
  requirePlatformPermission(ctx, Permission.PlatformStaffManage);
  const { invitationId } = parseInput(InvitationRef, input);
  const revoked = await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'StaffInvitation', id: invitationId }, () =>
      typedSql(tx.em)
        .updateTable('StaffInvitation')
        .set({ revokedAt: sql<Date>`now()` })
        .where('id', '=', invitationId)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .returning('id')
        .executeTakeFirst(),
    ),
  );
  if (!revoked) throw notFound('Invitation', { invitation_id: invitationId });
}

/**
 * 409 INVITATION_NOT_FOR_SHOP_MEMBER when `userId` belongs to a shop: staff and shop members are
 * separate accounts (docs/decisions.md, "Platform staff are not shop members"). `instead` says what
 * to do.
 */
async function refuseShopMember(em: EntityManager, userId: number, instead: string): Promise<void> {
  const membership = await typedSql(em).selectFrom('ShopMembership').select('shop').where('user', '=', userId).limit(1).executeTakeFirst();
  if (membership) throw conflict('INVITATION_NOT_FOR_SHOP_MEMBER', `A shop's member cannot join the platform's staff; ${instead}`, { shop_id: membership.shop });
}

export const acceptStaffInvitationRefusals = refusals('INVITATION_INVALID', 'INVITATION_NOT_YOURS', 'ALREADY_STAFF', 'INVITATION_NOT_FOR_SHOP_MEMBER');

/**
 * The signed-in account whose email the invitation names joins the platform's staff with its role.
 * The link works once: its row is locked and marked used in the same transaction, so two tabs
 * accepting at once give one success and one refusal. A customer's account becomes staff; an account
 * that belongs to a shop is refused (staff and shop members are separate accounts, as staff cannot
 * join a shop). The account's row is locked too, so a shop invitation accepted at the same moment
 * waits and then finds platform staff.
 */
export async function acceptStaffInvitation(ctx: ServiceContext, input: unknown): Promise<StaffMemberView> {
  const user = requireUser(ctx);
  const { token } = parseInput(AcceptStaffInvitationInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const invitation = await db
      .selectFrom('StaffInvitation')
      .select((eb) => ['id', 'email', 'platformRole', 'acceptedAt', 'revokedAt', eb('expiresAt', '<=', sql<Date>`now()`).as('expired')])
      .where('tokenHash', '=', linkTokenHash(token))
      .forUpdate()
      .executeTakeFirst();
    refuseClosedLink(invitation);
    const account = await db.selectFrom('User').select(['email', 'role']).where('id', '=', user.userId).forNoKeyUpdate().executeTakeFirstOrThrow();
    refuseOtherEmail(account.email, invitation.email);
    if (account.role === Role.PlatformAdmin) throw conflict('ALREADY_STAFF', "You are already on the platform's staff", { user_id: user.userId });
    await refuseShopMember(tx.em, user.userId, 'accept with another account');
    // From here the new staff member's writes are the platform's: audited in the role they join with.
    auditAs(tx, { userId: user.userId, role: `platform_${invitation.platformRole}`, shopId: null });
    await auditedWrite(tx, { type: 'User', id: user.userId }, () =>
      db.updateTable('User').set({ role: Role.PlatformAdmin, platformRole: invitation.platformRole, staffSince: sql<Date>`now()` }).where('id', '=', user.userId).execute(),
    );
    await auditedWrite(tx, { type: 'StaffInvitation', id: invitation.id }, () =>
      db.updateTable('StaffInvitation').set({ acceptedAt: sql<Date>`now()`, acceptedBy: user.userId }).where('id', '=', invitation.id).execute(),
    );
    return (await staffViews(tx, user.userId))[0];
  });
}

/**
 * The staff member `userId`, after locking the rows of every active admin (in id order, so two
 * callers never wait on each other crosswise) and then the member's. The caller's own role is read
 * again under the lock: an admin demoted or removed a moment ago by another admin, whose request
 * came first, may no longer manage the staff, whatever their request's actor said when it started.
 */
async function lockedStaff(tx: ServiceContext, callerId: number, userId: number) {
  const db = typedSql(tx.em);
  const admins = (
    await db.selectFrom('User').select('id').where('platformRole', '=', PlatformRole.Admin).where('disabledAt', 'is', null).orderBy('id').forNoKeyUpdate().execute()
  ).map((row) => row.id);
  if (!admins.includes(callerId)) throw forbidden(`This needs the ${Permission.PlatformStaffManage} permission`);
  const member = await db.selectFrom('User').select(['id', 'platformRole']).where('id', '=', userId).where('role', '=', Role.PlatformAdmin).forNoKeyUpdate().executeTakeFirst();
  if (!member) throw notFound('StaffMember', { user_id: userId });
  return { admins, role: member.platformRole as PlatformRole };
}

/**
 * Refuses a change that would leave the platform without an active admin: `userId` is one and no
 * other remains. Called with the admins' rows locked, so the count cannot change before commit.
 */
function refuseLastAdmin(admins: number[], userId: number, role: PlatformRole): void {
  if (role !== PlatformRole.Admin || admins.some((admin) => admin !== userId)) return;
  throw conflict('LAST_ADMIN', 'The platform keeps at least one admin: make another member an admin first', { user_id: userId });
}

export const changeStaffRoleRefusals = refusals('NOT_FOUND', 'LAST_ADMIN');

/** Gives a staff member another platform role; the last admin cannot be demoted. */
export async function changeStaffRole(ctx: ServiceContext, input: unknown): Promise<StaffMemberView> {
  const caller = requirePlatformPermission(ctx, Permission.PlatformStaffManage);
  const { userId, role } = parseInput(ChangeStaffRoleInput, input);
  return inTransaction(ctx, async (tx) => {
    const member = await lockedStaff(tx, caller.userId, userId);
    if (role !== PlatformRole.Admin) refuseLastAdmin(member.admins, userId, member.role);
    await auditedWrite(tx, { type: 'User', id: userId }, () => typedSql(tx.em).updateTable('User').set({ platformRole: role }).where('id', '=', userId).execute());
    return (await staffViews(tx, userId))[0];
  });
}

export const removeStaffRefusals = refusals('NOT_FOUND', 'LAST_ADMIN');

/**
 * Removes a member from the staff (an admin may remove themself while another admin remains): the
 * account becomes a customer's again, and every token it holds is revoked in the same transaction,
 * so a session open with it stops at its next request.
 */
export async function removeStaff(ctx: ServiceContext, input: unknown): Promise<void> {
  const caller = requirePlatformPermission(ctx, Permission.PlatformStaffManage);
  const { userId } = parseInput(StaffRef, input);
  await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const member = await lockedStaff(tx, caller.userId, userId);
    refuseLastAdmin(member.admins, userId, member.role);
    await auditedWrite(tx, { type: 'User', id: userId }, () =>
      db.updateTable('User').set({ role: Role.Customer, platformRole: null, staffSince: null }).where('id', '=', userId).execute(),
    );
    await ensureZeroBalances(tx.em, userId);
    await db.updateTable('AuthToken').set({ revokedAt: sql<Date>`now()` }).where('user', '=', userId).where('revokedAt', 'is', null).execute();
  });
}

/** What `grantAdmin` did: the account it made an admin, or found one already. */
export type AdminGrant = { outcome: 'granted' | 'already_admin'; userId: number };

/**
 * Makes the registered account `email` a platform admin, from the server's own console
 * (`npm run grant-admin -- <email>`, src/cli/grant-admin.ts): how a mall started without the demo
 * data gets its first admin, who then invites the rest of the staff. The account must have signed up
 * (a customer's); an account of a shop's staff or a disabled one is refused, and an admin of another
 * role becomes an admin. Whoever can run it can reach the database, so it asks nothing more; there
 * is no request, so it is logged by the console command, not in the audit log.
 */
export async function grantAdmin(em: EntityManager, email: string): Promise<AdminGrant> {
  const address = parseInput(z.object({ email: emailAddress }), { email }).email;
  return em.transactional(async (tx) => {
    const db = typedSql(tx);
    const account = await db.selectFrom('User').select(['id', 'role', 'platformRole', 'disabledAt']).where('email', '=', address).forNoKeyUpdate().executeTakeFirst();
    if (!account) throw notFound('Account', {});
    if (account.disabledAt !== null) throw conflict('CUSTOMER_WRONG_STATE', 'This account is disabled: enable it first', { customer_id: account.id, status: 'disabled', expected: ['active'] });
    if (account.role === Role.PlatformAdmin && account.platformRole === PlatformRole.Admin) return { outcome: 'already_admin', userId: account.id };
    await refuseShopMember(tx, account.id, 'sign up another account');
    await db
      .updateTable('User')
      .set({ role: Role.PlatformAdmin, platformRole: PlatformRole.Admin, staffSince: sql<Date>`coalesce(staff_since, now())` })
      .where('id', '=', account.id)
      .execute();
    return { outcome: 'granted', userId: account.id };
  });
}
