import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../errors.js';
import { z } from './validate.js';

/**
 * The one-time links of invitations (a shop's staff, the platform's staff): a random token the
 * inviter passes on once, of which only the SHA-256 is stored, so a leaked table invites nobody. A
 * link works once, until it expires or is revoked; the use case that accepts it locks its row.
 */

/** How long an invitation's link works. */
export const INVITATION_TTL_HOURS = 7 * 24;

/** The body that accepts a link: its token. */
export const AcceptLinkInput = z.strictObject({ token: z.string().trim().min(20).max(200) });

/** What is stored of a link's token. */
export const linkTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new link: its token (answered to the inviter once), its hash and the moment it stops working. */
export function newLink(): { token: string; tokenHash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: linkTokenHash(token), expiresAt: new Date(Date.now() + INVITATION_TTL_HOURS * 3600_000) };
}

/**
 * An invitation as its sender gets it: the token of the link, shown this once (only its hash is
 * kept), and whether the invitation email went to the mail server (if not, the sender passes the
 * link on). The schema of each kind of invitation's (shops/member-views.ts, platform/staff-views.ts)
 * is what REST publishes; GraphQL's types stay written (made from it, their `invitation` field would
 * take the invitation type's description), held to it by test/one-description.test.ts.
 */
export const sentLinkView = <S extends z.ZodType>(invitation: S) =>
  z.strictObject({
    invitation,
    token: z.string().describe('The one-time token of the link the invitee opens; shown this once, only its hash is kept'),
    emailSent: z.boolean().describe('Whether the mail server (SMTP_URL) took the invitation email at once; false: it is tried again for about a day (not without SMTP_URL), and you may pass the link on yourself'),
  });

/** An invitation's row as read under its lock, with whether it has expired by the database's clock. */
export interface LinkState {
  acceptedAt: Date | null;
  revokedAt: Date | null;
  /** Kysely's `SqlBool` of `expires_at <= now()`. */
  expired: boolean | 0 | 1 | null;
}

/**
 * Refuses a link that no longer works, with one answer for unknown, used, revoked and expired (404
 * INVITATION_INVALID): it says nothing of which, so a guessed token learns nothing.
 */
export function refuseClosedLink<T extends LinkState>(invitation: T | undefined): asserts invitation is T {
  if (!invitation || invitation.acceptedAt !== null || invitation.revokedAt !== null || invitation.expired) {
    throw new AppError('INVITATION_INVALID', 404, 'This invitation link is not valid any more (used, expired or unknown); ask for a new one');
  }
}

/** 422 INVITATION_NOT_YOURS: the link is made out to another email than the signed-in account's. */
export function refuseOtherEmail(accountEmail: string, invitedEmail: string): void {
  if (accountEmail !== invitedEmail) throw new AppError('INVITATION_NOT_YOURS', 422, 'This invitation is for another email address; sign in with the invited account');
}
