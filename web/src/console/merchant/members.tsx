import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ShopRole } from '../gql/graphql';
import { QueryResult } from '../../ui/query-result';
import { useSession } from '../../auth/session';
import { ActionButton, useAction, useListContext, when } from '../kit';
import { shopRoleLabel, usePermissions } from '../console-shell';
import { InviteForm, OpenInvitations, ResendInvitation, RoleSelect, type RoleChoice } from '../staff-kit';

/** Each shop role and what it opens, in words for the one choosing. */
const ROLES: RoleChoice<ShopRole>[] = [
  { value: 'OWNER', hint: 'everything, members included' },
  { value: 'MANAGER', hint: 'everything but members' },
  { value: 'CATALOG', hint: 'products, freight and promotions' },
  { value: 'FULFILMENT', hint: 'orders and shipping' },
  { value: 'FINANCE', hint: 'money, orders and invoices' },
  { value: 'SUPPORT', hint: 'orders, refunds and reviews' },
];

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

const ResendMemberInvitation = graphql(`
  mutation ConsoleResendInvitation($input: ResendInvitationInput!) {
    resendInvitation(input: $input) {
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

function InviteMemberForm() {
  const invite = useAction(InviteMember, (d) => d.inviteMember, 'Not invited', ['MemberInvitation']);
  const send = async (email: string, role: ShopRole) => {
    const answer = await invite.run({ input: { email, role } });
    return answer?.sent ? { email: answer.sent.invitation.email, token: answer.sent.token, emailSent: answer.sent.emailSent } : null;
  };
  return <InviteForm label="Invite a member" roles={ROLES} defaultRole="SUPPORT" page="join-shop" action={invite} send={send} />;
}

function ResendMember({ invitationId }: { invitationId: number }) {
  const resend = useAction(ResendMemberInvitation, (d) => d.resendInvitation, 'Not sent again', ['MemberInvitation']);
  const run = async () => {
    const answer = await resend.run({ input: { invitationId } });
    return answer?.sent ? { email: answer.sent.invitation.email, token: answer.sent.token, emailSent: answer.sent.emailSent } : null;
  };
  return <ResendInvitation page="join-shop" busy={resend.fetching} refusal={resend.refusal} resend={run} />;
}

function RoleChange({ userId, role, name }: { userId: number; role: ShopRole; name: string }) {
  const change = useAction(ChangeMemberRole, (d) => d.changeMemberRole, 'Role not changed');
  return <RoleSelect name={name} role={role} roles={ROLES} busy={change.fetching} change={(next) => void change.run({ input: { userId, role: next } })} refusal={change.refusal} />;
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
            <OpenInvitations
              items={data.memberInvitations}
              revoke={
                manages
                  ? (i) => (
                      <>
                      <ResendMember invitationId={i.id} />
                      <ActionButton
                        mutation={RevokeInvitation}
                        variables={{ input: { invitationId: i.id } }}
                        payload={(d) => d.revokeInvitation}
                        label="Revoke"
                        confirm={`Revoke the invitation of ${i.email}? Its link stops working.`}
                        refused="Not revoked"
                        invalidates={['MemberInvitation']}
                      />
                      </>
                    )
                  : undefined
              }
            />
            {manages ? <InviteMemberForm /> : null}
          </>
        )}
      </QueryResult>
    </>
  );
}
