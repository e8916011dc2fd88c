import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { refusalOf } from '../api/errors';
import { graphql } from '../gql';
import { useSession } from '../auth/session';
import { ErrorNotice } from '../ui/query-state';
import { JoinLinkPage, useReloadAccount } from './join-link';

const AcceptInvitation = graphql(`
  mutation AcceptInvitation($input: AcceptInvitationInput!) {
    acceptInvitation(input: $input) {
      joined {
        shopId
        role
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/**
 * The link a shop's owner sends (`/join-shop?token=…`): signed in with the invited email, the invitee
 * accepts once and becomes a member with the invitation's role; the account is read again, so the
 * shop console opens without signing in anew.
 */
function JoinShop({ token }: { token: string }) {
  const [state, accept] = useMutation(AcceptInvitation);
  const reloadAccount = useReloadAccount();
  const { chooseShop } = useSession();
  const [joined, setJoined] = useState<number | null>(null);
  const refused = refusalOf(state.error, state.data?.acceptInvitation);
  const run = async () => {
    const result = await accept({ input: { token } });
    const shopId = result.data?.acceptInvitation.joined?.shopId;
    if (!shopId) return;
    await reloadAccount();
    // A member of several shops starts in the one they just joined.
    chooseShop(shopId);
    setJoined(shopId);
  };
  if (joined !== null) {
    return (
      <div className="notice notice-ok" role="status">
        <p>You are a member of the shop now.</p>
        <p>
          <Link to="/merchant">Open the shop console</Link>
        </p>
      </div>
    );
  }
  return (
    <>
      <p>A shop invited you to its staff. Accepting adds you with the role the invitation names; the link then stops working.</p>
      {refused ? <ErrorNotice error={refused} title="Not joined" /> : null}
      <button type="button" className="primary" onClick={() => void run()} disabled={state.fetching}>
        {state.fetching ? 'Joining…' : 'Accept the invitation'}
      </button>
    </>
  );
}

export default function JoinShopPage() {
  return (
    <JoinLinkPage title="Join a shop" heading="Join a shop's staff" inviter="the shop's owner" roles={['CUSTOMER', 'SHOP_OPERATOR']}>
      {(token) => <JoinShop token={token} />}
    </JoinLinkPage>
  );
}
