import { useState, type FormEvent, type ReactNode } from 'react';
import { Field, text, when } from './kit';
import { lazySchema, useFormCheck } from './form-check';

const invitationSchema = lazySchema(() => import('../../../src/services/shops/invitation.inputs').then((m) => m.InvitationFields));

/**
 * The pieces both staff screens are made of (a shop's members, the platform's staff): roles chosen
 * from a list that says what each opens, an invitation form that shows the one-time link once, and
 * the open invitations.
 */

/** A role as the one choosing reads it: its name and what it opens (as src/shared/permissions.ts grants it). */
export interface RoleChoice<R extends string> {
  value: R;
  hint: string;
}

/** A role as a sentence says it ("finance", "fulfilment"). */
export const roleLabel = (role: string): string => role.toLowerCase();

function RoleOptions<R extends string>({ roles }: { roles: readonly RoleChoice<R>[] }) {
  return (
    <>
      {roles.map((r) => (
        <option key={r.value} value={r.value}>
          {roleLabel(r.value)}: {r.hint}
        </option>
      ))}
    </>
  );
}

/** A member's role, changed in place: `change` runs the mutation; its refusal shows beside. */
export function RoleSelect<R extends string>({ name, role, roles, busy, change, refusal }: { name: string; role: R; roles: readonly RoleChoice<R>[]; busy: boolean; change: (role: R) => void; refusal: ReactNode }) {
  return (
    <>
      <select aria-label={`Role of ${name}`} value={role} disabled={busy} onChange={(event) => change(event.target.value as R)}>
        <RoleOptions roles={roles} />
      </select>
      {refusal}
    </>
  );
}

/** An invitation as its form answers it: the invited email, the link's token, and whether the mall emailed it. */
export interface SentInvite {
  email: string;
  token: string;
  emailSent: boolean;
}

/**
 * The link an invitee opens (`/join-shop?token=…`, `/join-staff?token=…`): the storefront's page that
 * accepts it once they are signed in with the invited email. The mall emails it; when the email did
 * not go (no mail server, or it refused), the inviter passes it on. It is shown this once (only the
 * token's hash is kept).
 */
function InviteLink({ email, token, emailSent, page, again = false }: SentInvite & { page: 'join-shop' | 'join-staff'; again?: boolean }) {
  const link = `${location.origin}/${page}?token=${encodeURIComponent(token)}`;
  return (
    <div className={emailSent ? 'notice notice-ok' : 'notice'} role="status">
      <p>
        Invitation for <strong>{email}</strong> {again ? 'sent again: the earlier link no longer works.' : 'made.'}{' '}
        {emailSent
          ? 'The link is on its way to them by email; it works once, for 7 days, when they sign in with that email. You can also pass it on yourself; it is not shown again:'
          : 'The email did not go out yet (the mall tries again for about a day when a mail server is set up), so you may send them this link yourself; it works once, for 7 days, when they sign in with that email. It is not shown again:'}
      </p>
      <p>
        <code className="reference" aria-label="Invitation link">
          {link}
        </code>
      </p>
    </div>
  );
}

/** What the form needs of its mutation (a console `useAction`): whether it runs, and its refusals. */
interface FormAction {
  fetching: boolean;
  errors: { of(key: string): string | undefined };
  unshown: (shown: (key: string) => boolean) => ReactNode;
}

/**
 * Invites someone by email with a role: `send` runs the mutation and answers the invited email, the
 * link's token and whether it was emailed, or null when refused (the refusal shows on the fields or below them).
 */
export function InviteForm<R extends string>({ label, roles, defaultRole, page, action, send }: {
  label: string;
  roles: readonly RoleChoice<R>[];
  defaultRole: R;
  page: 'join-shop' | 'join-staff';
  action: FormAction;
  send: (email: string, role: R) => Promise<SentInvite | null>;
}) {
  const [sent, setSent] = useState<SentInvite | null>(null);
  // The address by the rule the server parses it with, as it is typed; the role is one of the select's.
  const check = useFormCheck(invitationSchema, (data) => ({ email: text(data.get('email')) }));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (!(await check.check())) return;
    const data = new FormData(form);
    const answer = await send(text(data.get('email')), String(data.get('role')) as R);
    if (answer) {
      setSent(answer);
      form.reset();
    }
  };
  return (
    <section aria-labelledby="invite">
      <h2 id="invite">Invite someone</h2>
      {sent ? <InviteLink {...sent} page={page} /> : null}
      <form {...check.form} onSubmit={submit} aria-label={label}>
        <Field label="Email" name="invite-email" {...check.field('email', action.errors.of('email'))}>
          {(props) => <input {...props} name="email" type="email" autoComplete="off" />}
        </Field>
        <Field label="Role" name="invite-role" error={action.errors.of('role')}>
          {(props) => (
            <select {...props} name="role" defaultValue={defaultRole}>
              <RoleOptions roles={roles} />
            </select>
          )}
        </Field>
        {action.unshown((k) => k === 'email' || k === 'role')}
        <button type="submit" className="primary" disabled={action.fetching}>
          Invite
        </button>
      </form>
    </section>
  );
}

/**
 * "Send again" for an open invitation: a new link replaces the old one (the invitee lost it, or it
 * went to the wrong inbox), shown once as a new invitation's is. `resend` runs the mutation and
 * answers the new link, or null when refused (`refusal` shows why).
 */
export function ResendInvitation({ page, busy, refusal, resend }: { page: 'join-shop' | 'join-staff'; busy: boolean; refusal: ReactNode; resend: () => Promise<SentInvite | null> }) {
  const [sent, setSent] = useState<SentInvite | null>(null);
  return (
    <>
      <button type="button" disabled={busy} onClick={() => void resend().then(setSent)}>
        Send again
      </button>
      {refusal}
      {sent ? <InviteLink {...sent} page={page} again /> : null}
    </>
  );
}

/** The open invitations, each with its revoke button when the viewer may revoke (`revoke`). */
export function OpenInvitations({ items, revoke }: { items: readonly { id: number; email: string; role: string; expiresAt: string }[]; revoke?: (invitation: { id: number; email: string }) => ReactNode }) {
  return (
    <>
      <h2>Open invitations</h2>
      {items.length === 0 ? <p className="empty">No invitation is waiting.</p> : null}
      <ul className="invitations">
        {items.map((i) => (
          <li key={i.id}>
            {i.email} as {roleLabel(i.role)} · until {when(i.expiresAt)} {revoke ? revoke(i) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
