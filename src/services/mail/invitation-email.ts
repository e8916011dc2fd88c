import type { MailMessage } from './mailer.js';

/** What an invitation email says: who asks whom to join what, as which role, by which link, until when. */
export interface Invitation {
  to: string;
  /** What the invitee joins, as a sentence names it ("Tech Harbor", "the Mallfront platform's staff"). */
  joining: string;
  role: string;
  inviter: string;
  link: string;
  expiresAt: Date;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The email of a shop's or the platform's invitation, in plain text and HTML. */
export function invitationEmail(invitation: Invitation): MailMessage {
  const until = invitation.expiresAt.toUTCString();
  const lines = [
    `${invitation.inviter} invites you to join ${invitation.joining} on Mallfront as ${invitation.role}.`,
    '',
    `Sign in (or sign up) with this address, ${invitation.to}, then open the link to accept:`,
    invitation.link,
    '',
    `The link works once, until ${until}. If you did not expect this invitation, ignore this email.`,
  ];
  const e = escapeHtml;
  const html = [
    `<p>${e(invitation.inviter)} invites you to join <strong>${e(invitation.joining)}</strong> on Mallfront as <strong>${e(invitation.role)}</strong>.</p>`,
    `<p>Sign in (or sign up) with this address, ${e(invitation.to)}, then open the link to accept:</p>`,
    `<p><a href="${e(invitation.link)}">Accept the invitation</a></p>`,
    `<p>The link works once, until ${e(until)}. If you did not expect this invitation, ignore this email.</p>`,
  ].join('\n');
  return { to: invitation.to, subject: `Join ${invitation.joining} on Mallfront`, text: lines.join('\n'), html };
}
