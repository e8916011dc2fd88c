import { invitationEmail } from '../mail/invitation-email.js';
import { queueMail, sendQueued } from '../mail/mail-queue.js';
import { auditAs, auditedWrite } from '../../shared/audit.js';
import { sql } from 'kysely';
import { conflict, forbidden, notFound } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { ShopMembership, ShopRole } from '../../entities/shop-membership.entity.js';
import { MemberInvitation } from '../../entities/member-invitation.entity.js';
import { Role } from '../../entities/user.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireShopPermission, requireUser } from '../../shared/guards.js';
import { Permission, SHOP_ROLE_PERMISSIONS } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { InvitationFields } from './invitation.inputs.js';
import { toDate } from '../../shared/values.js';
import type { InvitationView, JoinedShopView, MemberView, SentInvitationView } from './member-views.js';
import { AcceptLinkInput, newLink, linkTokenHash, refuseClosedLink, refuseOtherEmail } from '../../shared/one-time-link.js';

/**
 * A shop's staff (issue 41, "staff with roles"): the one module that writes `shop_membership` and
 * `member_invitation`. An owner invites by email with a one-time link, changes roles and removes
 * members; the shop always keeps at least one owner. Every write here locks the shop's row first, so
 * two owners removing (or demoting) each other at the same moment run one after the other, and the
 * second sees that it would leave no owner.
 */

export { InvitationView, MemberView } from './member-views.js';

export type SentInvitation = SentInvitationView;

export const InviteMemberInput = InvitationFields.extend({ role: z.enum(ShopRole) });
export const AcceptInvitationInput = AcceptLinkInput;
export const MemberRef = z.strictObject({ userId: id });
export const ChangeMemberRoleInput = MemberRef.extend({ role: z.enum(ShopRole) });

/** The shop's row, locked until the transaction ends: every change of its staff queues here. */
async function lockShop(tx: ServiceContext, shopId: number): Promise<void> {
  await typedSql(tx.em).selectFrom('Shop').select('id').where('id', '=', shopId).forNoKeyUpdate().execute();
}

async function memberViews(ctx: ServiceContext, shopId: number, userId?: number): Promise<MemberView[]> {
  let rows = typedSql(ctx.em)
    .selectFrom('ShopMembership as m')
    .innerJoin('User as u', 'u.id', 'm.user')
    .select(['m.user as userId', 'u.email', 'u.displayName', 'm.role', 'm.createdAt as joinedAt'])
    .where('m.shop', '=', shopId);
  if (userId !== undefined) rows = rows.where('m.user', '=', userId);
  return (await rows.orderBy('m.id').execute()).map((row) => ({ ...row, joinedAt: toDate(row.joinedAt) }));
}

/**
 * The applicant of an approved shop application becomes its first owner, inside the approval's
 * transaction (shop-application.service.ts): a customer's account becomes a shop operator's. False
 * when the applicant has become platform staff meanwhile (nothing written).
 */
export async function addFirstOwner(tx: ServiceContext, shopId: number, userId: number): Promise<boolean> {
  const db = typedSql(tx.em);
  const operator = await auditedWrite(tx, { type: 'User', id: userId }, () =>
    db
      .updateTable('User')
      .set({ role: Role.ShopOperator })
      .where('id', '=', userId)
      .where('role', 'in', [Role.Customer, Role.ShopOperator])
      .returning('id')
      .executeTakeFirst(),
  );
  if (!operator) return false;
  tx.em.create(ShopMembership, { user: userId, shop: shopId, role: ShopRole.Owner });
  await tx.em.flush();
  return true;
}

/** The acting shop's members, in the order they joined. */
export async function listMembers(ctx: ServiceContext): Promise<MemberView[]> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopMembersRead);
  return memberViews(ctx, shopId);
}

export const inviteMemberRefusals = refusals('ALREADY_MEMBER');

/**
 * Invites `email` to the acting shop with a role: answers the link's token once (only its SHA-256
 * is stored) and emails the invitee the link. Inviting someone who already belongs to the shop is refused.
 */
export async function inviteMember(ctx: ServiceContext, input: unknown): Promise<SentInvitation> {
  const owner = requireShopPermission(ctx, Permission.ShopMembersManage);
  const data = parseInput(InviteMemberInput, input);
  const sent = await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const member = await db
      .selectFrom('ShopMembership as m')
      .innerJoin('User as u', 'u.id', 'm.user')
      .select('m.user')
      .where('m.shop', '=', owner.shopId)
      .where('u.email', '=', data.email)
      .executeTakeFirst();
    if (member) throw conflict('ALREADY_MEMBER', `${data.email} is already a member of this shop`, { user_id: member.user });
    const { token, tokenHash, expiresAt: until } = newLink();
    const invitation = tx.em.create(MemberInvitation, { shop: owner.shopId, email: data.email, role: data.role, tokenHash, invitedBy: owner.userId, expiresAt: until });
    await tx.em.flush();
    const { name: shopName } = await db.selectFrom('Shop').select('name').where('id', '=', owner.shopId).executeTakeFirstOrThrow();
    const { displayName: inviter } = await db.selectFrom('User').select('displayName').where('id', '=', owner.userId).executeTakeFirstOrThrow();
    const { id: invitationId, email, role, expiresAt, createdAt } = invitation;
    // Queued with the invitation: a refused or rolled-back one sends nothing, and a committed one is
    // sent even if this process stops first (services/mail/mail-queue.ts).
    const mailId = await queueMail(tx, invitationEmail({ to: email, joining: shopName, role, inviter, link: ctx.wiring.mailer.link(`/join-shop?token=${token}`), expiresAt }));
    return { invitation: { id: invitationId, shopId: owner.shopId, email, role, expiresAt, createdAt }, token, mailId };
  });
  // Tried once the invitation is committed; a mail server that fails leaves the invitation standing
  // (the mail is tried again, and the owner can pass the link on meanwhile).
  const { invitation, token, mailId } = sent;
  return { invitation, token, emailSent: await sendQueued(ctx, mailId) };
}

export const acceptInvitationRefusals = refusals('INVITATION_INVALID', 'INVITATION_NOT_YOURS', 'ALREADY_MEMBER', 'INVITATION_NOT_FOR_STAFF');

/**
 * The signed-in user whose email the invitation names joins the shop with its role. The link works
 * once: the invitation's row is locked and marked used in the same transaction, so two tabs
 * accepting at once give one membership and one refusal. A customer's account becomes a shop
 * operator's (as an approved applicant's does); platform staff cannot join a shop. The link's own
 * refusals are 404 (no such open invitation) and 422 (made out to another email): about the link, not
 * the caller's permissions, so GraphQL answers them as the mutation's typed errors.
 */
export async function acceptInvitation(ctx: ServiceContext, input: unknown): Promise<JoinedShopView> {
  const user = requireUser(ctx);
  const { token } = parseInput(AcceptInvitationInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const invitation = await db
      .selectFrom('MemberInvitation')
      .select((eb) => ['id', 'shop', 'email', 'role', 'acceptedAt', 'revokedAt', eb('expiresAt', '<=', sql<Date>`now()`).as('expired')])
      .where('tokenHash', '=', linkTokenHash(token))
      .forUpdate()
      .executeTakeFirst();
    refuseClosedLink(invitation);
    // The account's row is locked: accepting a platform staff invitation at the same moment waits,
    // so an account never ends both platform staff and a shop's member.
    const account = await db.selectFrom('User').select(['email', 'role']).where('id', '=', user.userId).forNoKeyUpdate().executeTakeFirstOrThrow();
    refuseOtherEmail(account.email, invitation.email);
    if (account.role === Role.PlatformAdmin) throw conflict('INVITATION_NOT_FOR_STAFF', 'Platform staff cannot join a shop; accept with another account');
    await lockShop(tx, invitation.shop);
    const already = await db.selectFrom('ShopMembership').select('id').where('shop', '=', invitation.shop).where('user', '=', user.userId).executeTakeFirst();
    if (already) throw conflict('ALREADY_MEMBER', 'You are already a member of this shop', { user_id: user.userId });
    // From here the new member's writes are the shop's: audited in the role they join with.
    auditAs(tx, { userId: user.userId, role: `shop_${invitation.role}`, shopId: invitation.shop });
    await auditedWrite(tx, { type: 'User', id: user.userId }, () =>
      db.updateTable('User').set({ role: Role.ShopOperator }).where('id', '=', user.userId).where('role', '=', Role.Customer).execute(),
    );
    tx.em.create(ShopMembership, { user: user.userId, shop: invitation.shop, role: invitation.role });
    await tx.em.flush();
    await auditedWrite(tx, { type: 'MemberInvitation', id: invitation.id }, () =>
      db.updateTable('MemberInvitation').set({ acceptedAt: sql<Date>`now()`, acceptedBy: user.userId }).where('id', '=', invitation.id).execute(),
    );
    const [member] = await memberViews(tx, invitation.shop, user.userId);
    return { ...member, shopId: invitation.shop };
  });
}

/** The open invitations of the acting shop (not used, not revoked, not expired), newest first. */
export async function listInvitations(ctx: ServiceContext): Promise<InvitationView[]> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopMembersRead);
  return typedSql(ctx.em)
    .selectFrom('MemberInvitation')
    .select(['id', 'shop as shopId', 'email', 'role', 'expiresAt', 'createdAt'])
    .where('shop', '=', shopId)
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .orderBy('id', 'desc')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, expiresAt: toDate(row.expiresAt), createdAt: toDate(row.createdAt) })));
}

export const resendInvitationRefusals = refusals('NOT_FOUND');

/**
 * Sends an open invitation of the acting shop again, with a new link: the old link stops working (it
 * may be what leaked, or what the invitee lost) and the new one works for a full week from now. The
 * answer holds the new token once, as the first sending's did.
 */
export async function resendInvitation(ctx: ServiceContext, input: unknown): Promise<SentInvitation> {
  const owner = requireShopPermission(ctx, Permission.ShopMembersManage);
  const { invitationId } = parseInput(z.strictObject({ invitationId: id }), input);
  const { token, tokenHash, expiresAt: until } = newLink();
  const sent = await inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const row = await auditedWrite(tx, { type: 'MemberInvitation', id: invitationId }, () =>
      db
        .updateTable('MemberInvitation')
        .set({ tokenHash, expiresAt: until })
        .where('id', '=', invitationId)
        .where('shop', '=', owner.shopId)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .returning(['id', 'email', 'role', 'expiresAt', 'createdAt'])
        .executeTakeFirst(),
    );
    if (!row) throw notFound('Invitation', { invitation_id: invitationId });
    const { name: shopName } = await db.selectFrom('Shop').select('name').where('id', '=', owner.shopId).executeTakeFirstOrThrow();
    const { displayName: inviter } = await db.selectFrom('User').select('displayName').where('id', '=', owner.userId).executeTakeFirstOrThrow();
    const invitation = { ...row, shopId: owner.shopId, expiresAt: toDate(row.expiresAt), createdAt: toDate(row.createdAt) };
    const link = ctx.wiring.mailer.link(`/join-shop?token=${token}`);
    const mailId = await queueMail(tx, invitationEmail({ to: invitation.email, joining: shopName, role: invitation.role, inviter, link, expiresAt: invitation.expiresAt }));
    return { invitation, mailId };
  });
  // Tried once the new link is committed (see `inviteMember`).
  return { invitation: sent.invitation, token, emailSent: await sendQueued(ctx, sent.mailId) };
}

export const revokeInvitationRefusals = refusals('NOT_FOUND');

/** Withdraws an open invitation of the acting shop: its link stops working. */
export async function revokeInvitation(ctx: ServiceContext, input: unknown): Promise<void> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopMembersManage);
  const { invitationId } = parseInput(z.strictObject({ invitationId: id }), input);
  // In a transaction of its own so the audit log records it with the write.
  const revoked = await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'MemberInvitation', id: invitationId }, () =>
      typedSql(tx.em)
        .updateTable('MemberInvitation')
        .set({ revokedAt: sql<Date>`now()` })
        .where('id', '=', invitationId)
        .where('shop', '=', shopId)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .returning('id')
        .executeTakeFirst(),
    ),
  );
  if (!revoked) throw notFound('Invitation', { invitation_id: invitationId });
}

/**
 * Refuses a change that would leave the shop without an owner: `userId` is an owner and no other
 * owner remains. Called with the shop's row locked, so the count cannot change before commit.
 */
async function refuseLastOwner(tx: ServiceContext, shopId: number, userId: number, role: ShopRole): Promise<void> {
  if (role !== ShopRole.Owner) return;
  const others = await typedSql(tx.em)
    .selectFrom('ShopMembership')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('shop', '=', shopId)
    .where('role', '=', ShopRole.Owner)
    .where('user', '<>', userId)
    .executeTakeFirstOrThrow();
  if (others.n === 0) throw conflict('LAST_OWNER', 'A shop keeps at least one owner: make another member an owner first', { shop_id: shopId, user_id: userId });
}

/**
 * The member `userId` of the shop, with the shop's row locked. The caller's own role is read again
 * under the lock: an owner removed or demoted a moment ago by the other owner (whose request came
 * first) may no longer manage members, whatever their request's actor said when it started.
 */
async function lockedMember(tx: ServiceContext, caller: { userId: number; shopId: number }, userId: number) {
  const shopId = caller.shopId;
  await lockShop(tx, shopId);
  const own = await typedSql(tx.em).selectFrom('ShopMembership').select('role').where('shop', '=', shopId).where('user', '=', caller.userId).executeTakeFirst();
  if (!own || !SHOP_ROLE_PERMISSIONS[own.role].includes(Permission.ShopMembersManage)) throw forbidden(`This needs the ${Permission.ShopMembersManage} permission`);
  const member = await typedSql(tx.em).selectFrom('ShopMembership').select(['id', 'role']).where('shop', '=', shopId).where('user', '=', userId).executeTakeFirst();
  if (!member) throw notFound('Member', { user_id: userId });
  return member;
}

export const changeMemberRoleRefusals = refusals('NOT_FOUND', 'LAST_OWNER');

/** Gives a member of the acting shop another role; the last owner cannot be demoted. */
export async function changeMemberRole(ctx: ServiceContext, input: unknown): Promise<MemberView> {
  const caller = requireShopPermission(ctx, Permission.ShopMembersManage);
  const shopId = caller.shopId;
  const { userId, role } = parseInput(ChangeMemberRoleInput, input);
  return inTransaction(ctx, async (tx) => {
    const member = await lockedMember(tx, caller, userId);
    if (role !== ShopRole.Owner) await refuseLastOwner(tx, shopId, userId, member.role);
    await auditedWrite(tx, { type: 'ShopMembership', id: member.id }, () => typedSql(tx.em).updateTable('ShopMembership').set({ role }).where('id', '=', member.id).execute());
    return (await memberViews(tx, shopId, userId))[0];
  });
}

export const removeMemberRefusals = refusals('NOT_FOUND', 'LAST_OWNER');

/**
 * Removes a member from the acting shop (an owner may remove themself while another owner remains).
 * The account stays; from its next request on it acts for this shop no more.
 */
export async function removeMember(ctx: ServiceContext, input: unknown): Promise<void> {
  const caller = requireShopPermission(ctx, Permission.ShopMembersManage);
  const shopId = caller.shopId;
  const { userId } = parseInput(MemberRef, input);
  await inTransaction(ctx, async (tx) => {
    const member = await lockedMember(tx, caller, userId);
    await refuseLastOwner(tx, shopId, userId, member.role);
    await auditedWrite(tx, { type: 'ShopMembership', id: member.id }, () => typedSql(tx.em).deleteFrom('ShopMembership').where('id', '=', member.id).execute());
  });
}
