import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { refusalOf } from '../api/errors';
import { graphql } from '../gql';
import { ErrorNotice } from '../ui/query-state';
import { JoinLinkPage, useReloadAccount } from './join-link';

const AcceptStaffInvitation = graphql(`
  mutation AcceptStaffInvitation($input: AcceptStaffInvitationInput!) {
    acceptStaffInvitation(input: $input) {
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

/**
 * The link a platform admin sends (`/join-staff?token=…`): signed in with the invited email, the
 * invitee accepts once and joins the platform's staff with the invitation's role; the account is read
 * again, so the platform console opens without signing in anew. Staff may open it too (the account
 * is staff once it accepted): accepting is then refused as ALREADY_STAFF, in words.
 */
function JoinStaff({ token }: { token: string }) {
  const [state, accept] = useMutation(AcceptStaffInvitation);
  const reloadAccount = useReloadAccount();
  const [joined, setJoined] = useState(false);
  const refused = refusalOf(state.error, state.data?.acceptStaffInvitation);
  const run = async () => {
    const result = await accept({ input: { token } });
    if (!result.data?.acceptStaffInvitation.member) return;
    await reloadAccount();
    setJoined(true);
  };
  if (joined) {
    return (
      <div className="notice notice-ok" role="status">
        <p>You are on the platform&apos;s staff now.</p>
        <p>
          <Link to="/admin">Open the platform console</Link>
        </p>
      </div>
    );
  }
  return (
    <>
      <p>The mall invited you to its staff. Accepting adds you with the role the invitation names; the link then stops working.</p>
      {refused ? <ErrorNotice error={refused} title="Not joined" /> : null}
      <button type="button" className="primary" onClick={() => void run()} disabled={state.fetching}>
        {state.fetching ? 'Joining…' : 'Accept the invitation'}
      </button>
    </>
  );
}

export default function JoinStaffPage() {
  return (
    <JoinLinkPage title="Join the platform's staff" heading="Join the platform's staff" inviter="the platform's admin" roles={['CUSTOMER', 'SHOP_OPERATOR', 'PLATFORM_ADMIN']}>
      {(token) => <JoinStaff token={token} />}
    </JoinLinkPage>
  );
}
