import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ShopRole } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { useSession } from '../../auth/session';
import { ActionButton, Field, text, useAction, useListContext, when } from '../kit';
import { shopRoleLabel, usePermissions } from '../console-shell';

const ROLES: ShopRole[] = ['OWNER', 'MANAGER', 'CATALOG', 'FULFILMENT', 'FINANCE', 'SUPPORT'];

/** What each role opens, as src/shared/permissions.ts grants it, in words for the one choosing. */
const ROLE_HINTS: Record<ShopRole, string> = {
  OWNER: 'everything, members included',
  MANAGER: 'everything but members',
  CATALOG: 'products, freight and promotions',
  FULFILMENT: 'orders and shipping',
  FINANCE: 'money, orders and invoices',
  SUPPORT: 'orders, refunds and reviews',
};

const ShopMembers = graphql(`
  query ShopMembers {
    shopMembers {
      userId
      email
      displayName
      role
      joinedAt
    }
    memberInvitations {
      id
      email
      role
      expiresAt
      createdAt
    }
  }
`);

const InviteMember = graphql(`
  mutation ConsoleInviteMember($input: InviteMemberInput!) {
    inviteMember(input: $input) {
      sent {
        token
        invitation {
          id
          email
          role
          expiresAt
          createdAt
        }
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const RevokeInvitation = graphql(`
  mutation ConsoleRevokeInvitation($input: RevokeInvitationInput!) {
    revokeInvitation(input: $input) {
      invitationId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const ChangeMemberRole = graphql(`
  mutation ConsoleChangeMemberRole($input: ChangeMemberRoleInput!) {
    changeMemberRole(input: $input) {
      member {
        userId
        role
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const RemoveMember = graphql(`
  mutation ConsoleRemoveMember($input: RemoveMemberInput!) {
    removeMember(input: $input) {
      userId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const RoleOptions = () => (
  <>
    {ROLES.map((r) => (
      <option key={r} value={r}>
        {shopRoleLabel(r)}: {ROLE_HINTS[r]}
      </option>
    ))}
  </>
);

/**
 * The link an invitee opens: the storefront's page that accepts it once they are signed in with the
 * invited email. The mall sends no email yet, so the owner passes it on; it is shown this once.
 */
function InviteLink({ email, token }: { email: string; token: string }) {
  const link = `${location.origin}/join-shop?token=${encodeURIComponent(token)}`;
  return (
    <div className="notice notice-ok" role="status">
      <p>
        Invitation for <strong>{email}</strong> made. Send them this link; it works once, for 7 days, when they sign in with that email. It is not shown again:
      </p>
      <p>
        <code className="reference" aria-label="Invitation link">
          {link}
        </code>
      </p>
    </div>
  );
}

function InviteForm() {
  const invite = useAction(InviteMember, (d) => d.inviteMember, 'Not invited', ['MemberInvitation']);
  const [sent, setSent] = useState<{ email: string; token: string } | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const answer = await invite.run({ input: { email: text(data.get('email')), role: String(data.get('role')) as ShopRole } });
    if (answer?.sent) {
      setSent({ email: answer.sent.invitation.email, token: answer.sent.token });
      form.reset();
    }
  };
  return (
    <section aria-labelledby="invite">
      <h2 id="invite">Invite someone</h2>
      {sent ? <InviteLink {...sent} /> : null}
      <form onSubmit={submit} noValidate aria-label="Invite a member">
        <Field label="Email" name="invite-email" error={invite.errors.of('email')}>
          {(props) => <input {...props} name="email" type="email" autoComplete="off" />}
        </Field>
        <Field label="Role" name="invite-role" error={invite.errors.of('role')}>
          {(props) => (
            <select {...props} name="role" defaultValue="SUPPORT">
              <RoleOptions />
            </select>
          )}
        </Field>
        {invite.unshown((k) => k === 'email' || k === 'role')}
        <button type="submit" className="primary" disabled={invite.fetching}>
          Invite
        </button>
      </form>
    </section>
  );
}

function RoleChange({ userId, role, name }: { userId: number; role: ShopRole; name: string }) {
  const change = useAction(ChangeMemberRole, (d) => d.changeMemberRole, 'Role not changed');
  return (
    <>
      <select aria-label={`Role of ${name}`} value={role} disabled={change.fetching} onChange={(event) => void change.run({ input: { userId, role: event.target.value as ShopRole } })}>
        <RoleOptions />
      </select>
      {change.refusal}
    </>
  );
}

/** The acting shop's staff: members with their roles, open invitations, and inviting someone (owners). */
export function Members() {
  const [result] = useQuery({ query: ShopMembers, context: useListContext('ShopMember', 'MemberInvitation') });
  const manages = usePermissions().includes('SHOP_MEMBERS_MANAGE');
  const { session } = useSession();
  return (
    <>
      <h1>Members</h1>
      <QueryResult result={result} what="Loading the members">
        {(data) => (
          <>
            <table className="grid">
              <caption className="visually-hidden">Members of the shop</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  {manages ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {data.shopMembers.map((m) => (
                  <tr key={m.userId}>
                    <td>
                      {m.displayName}
                      {m.userId === session?.user.id ? ' (you)' : ''}
                    </td>
                    <td>{m.email}</td>
                    <td>{manages ? <RoleChange userId={m.userId} role={m.role} name={m.displayName} /> : shopRoleLabel(m.role)}</td>
                    <td>{when(m.joinedAt)}</td>
                    {manages ? (
                      <td>
                        <ActionButton
                          mutation={RemoveMember}
                          variables={{ input: { userId: m.userId } }}
                          payload={(d) => d.removeMember}
                          label="Remove"
                          confirm={`Remove ${m.displayName} from the shop? They lose every screen of it at once.`}
                          refused="Not removed"
                          invalidates={['ShopMember']}
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
            <h2>Open invitations</h2>
            {data.memberInvitations.length === 0 ? <p className="empty">No invitation is waiting.</p> : null}
            <ul className="invitations">
              {data.memberInvitations.map((i) => (
                <li key={i.id}>
                  {i.email} as {shopRoleLabel(i.role)} · until {when(i.expiresAt)}{' '}
                  {manages ? (
                    <ActionButton
                      mutation={RevokeInvitation}
                      variables={{ input: { invitationId: i.id } }}
                      payload={(d) => d.revokeInvitation}
                      label="Revoke"
                      confirm={`Revoke the invitation of ${i.email}? Its link stops working.`}
                      refused="Not revoked"
                      invalidates={['MemberInvitation']}
                    />
                  ) : null}
                </li>
              ))}
            </ul>
            {manages ? <InviteForm /> : null}
          </>
        )}
      </QueryResult>
    </>
  );
}
