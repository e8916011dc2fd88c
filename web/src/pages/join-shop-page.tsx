import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useClient, useMutation } from 'urql';
import { refusalOf } from '../api/errors';
import { graphql } from '../gql';
import { RequireSignIn } from '../auth/require-sign-in';
import { useSession } from '../auth/session';
import { ErrorNotice } from '../ui/query-state';
import { usePageTitle } from '../ui/page-title';

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

const JoinedAccount = graphql(`
  query JoinedAccount {
    me {
      id
      email
      displayName
      role
      shopId
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
  const client = useClient();
  const { updateUser, chooseShop } = useSession();
  const [joined, setJoined] = useState<number | null>(null);
  const refused = refusalOf(state.error, state.data?.acceptInvitation);
  const run = async () => {
    const result = await accept({ input: { token } });
    const shopId = result.data?.acceptInvitation.joined?.shopId;
    if (!shopId) return;
    const me = await client.query(JoinedAccount, {}, { requestPolicy: 'network-only' }).toPromise();
    if (me.data) updateUser({ ...me.data.me, shopId: me.data.me.shopId ?? null });
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
  usePageTitle('Join a shop');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <section className="auth-form">
      <h1>Join a shop&apos;s staff</h1>
      {token === '' ? (
        <div className="notice notice-error" role="alert">
          This link has no invitation in it. Ask the shop&apos;s owner for the link again.
        </div>
      ) : (
        <RequireSignIn roles={['CUSTOMER', 'SHOP_OPERATOR']}>
          <JoinShop token={token} />
        </RequireSignIn>
      )}
    </section>
  );
}
