import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { PlatformRole } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { useSession } from '../../auth/session';
import { ActionButton, useAction, useListContext, when } from '../kit';
import { InviteForm, OpenInvitations, ResendInvitation, RoleSelect, type RoleChoice } from '../staff-kit';

/** Each platform role and what it opens, in words for the one choosing. */
const ROLES: RoleChoice<PlatformRole>[] = [
  { value: 'ADMIN', hint: 'everything, the staff included' },
  { value: 'FINANCE', hint: 'payouts, commissions and payments' },
  { value: 'SUPPORT', hint: 'orders, customers, disputes and redemptions' },
  { value: 'CONTENT', hint: 'brands, home content, points mall and reviews' },
];

const PlatformStaff = graphql(`
  query PlatformStaff {
    platformStaff {
      userId
      email
      displayName
      role
      since
      disabled
    }
    staffInvitations {
      id
      email
      role
      expiresAt
      createdAt
    }
  }
`);

const InviteStaff = graphql(`
  mutation ConsoleInviteStaff($input: InviteStaffInput!) {
    inviteStaff(input: $input) {
      sent {
        token
        emailSent
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

const RevokeStaffInvitation = graphql(`
  mutation ConsoleRevokeStaffInvitation($input: RevokeStaffInvitationInput!) {
    revokeStaffInvitation(input: $input) {
      invitationId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const ResendStaffInvitation = graphql(`
  mutation ConsoleResendStaffInvitation($input: ResendStaffInvitationInput!) {
    resendStaffInvitation(input: $input) {
      sent {
        token
        emailSent
        invitation {
          id
          email
          expiresAt
        }
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function ResendStaff({ invitationId }: { invitationId: number }) {
  const resend = useAction(ResendStaffInvitation, (d) => d.resendStaffInvitation, 'Not sent again', ['StaffInvitation']);
  const run = async () => {
    const answer = await resend.run({ input: { invitationId } });
    return answer?.sent ? { email: answer.sent.invitation.email, token: answer.sent.token, emailSent: answer.sent.emailSent } : null;
  };
  return <ResendInvitation page="join-staff" busy={resend.fetching} refusal={resend.refusal} resend={run} />;
}

const ChangeStaffRole = graphql(`
  mutation ConsoleChangeStaffRole($input: ChangeStaffRoleInput!) {
    changeStaffRole(input: $input) {
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

const RemoveStaff = graphql(`
  mutation ConsoleRemoveStaff($input: RemoveStaffInput!) {
    removeStaff(input: $input) {
      userId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function InviteStaffForm() {
  const invite = useAction(InviteStaff, (d) => d.inviteStaff, 'Not invited', ['StaffInvitation']);
  const send = async (email: string, role: PlatformRole) => {
    const answer = await invite.run({ input: { email, role } });
    return answer?.sent ? { email: answer.sent.invitation.email, token: answer.sent.token, emailSent: answer.sent.emailSent } : null;
  };
  return <InviteForm label="Invite a staff member" roles={ROLES} defaultRole="SUPPORT" page="join-staff" action={invite} send={send} />;
}

function RoleChange({ userId, role, name }: { userId: number; role: PlatformRole; name: string }) {
  const change = useAction(ChangeStaffRole, (d) => d.changeStaffRole, 'Role not changed');
  return <RoleSelect name={name} role={role} roles={ROLES} busy={change.fetching} change={(next) => void change.run({ input: { userId, role: next } })} refusal={change.refusal} />;
}

/** The platform's staff: members with their roles (changed in place), removal, open invitations, and inviting someone. */
export function Staff() {
  const [result] = useQuery({ query: PlatformStaff, context: useListContext('StaffMember', 'StaffInvitation') });
  const { session } = useSession();
  return (
    <>
      <h1>Staff</h1>
      <QueryResult result={result} what="Loading the staff">
        {(data) => (
          <>
            <table className="grid">
              <caption className="visually-hidden">The platform&apos;s staff</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Since</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.platformStaff.map((m) => (
                  <tr key={m.userId}>
                    <td>
                      {m.displayName}
                      {m.userId === session?.user.id ? ' (you)' : ''}
                      {m.disabled ? ' (disabled)' : ''}
                    </td>
                    <td>{m.email}</td>
                    <td>
                      <RoleChange userId={m.userId} role={m.role} name={m.displayName} />
                    </td>
                    <td>{when(m.since)}</td>
                    <td>
                      <ActionButton
                        mutation={RemoveStaff}
                        variables={{ input: { userId: m.userId } }}
                        payload={(d) => d.removeStaff}
                        label="Remove"
                        confirm={`Remove ${m.displayName} from the staff? Their account becomes a customer's and their sessions end at once.`}
                        refused="Not removed"
                        invalidates={['StaffMember']}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <OpenInvitations
              items={data.staffInvitations}
              revoke={(i) => (
                <>
                <ResendStaff invitationId={i.id} />
                <ActionButton
                  mutation={RevokeStaffInvitation}
                  variables={{ input: { invitationId: i.id } }}
                  payload={(d) => d.revokeStaffInvitation}
                  label="Revoke"
                  confirm={`Revoke the invitation of ${i.email}? Its link stops working.`}
                  refused="Not revoked"
                  invalidates={['StaffInvitation']}
                />
                </>
              )}
            />
            <InviteStaffForm />
          </>
        )}
      </QueryResult>
    </>
  );
}
