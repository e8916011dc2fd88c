import { useNavigate, useSearchParams } from 'react-router';
import { useClient } from 'urql';
import type { ApiRefusal } from '../api/errors';
import { useSession } from './session';
import { toSession } from './session-fields';
import { rememberDevice } from './device-tokens';
import type { SessionFieldsFragment } from '../gql/graphql';
import { safeRedirect } from './safe-redirect';
import { mergeGuestCart } from '../cart/merge-guest-cart';

/**
 * After sign-in or registration: remember this browser as a device of the account, merge the guest
 * cart kept while signed out into the account's, store the session, and go back to `redirect` when it is a
 * same-origin path (else `/`).
 */
export function useFinishSignIn(): (signedIn: SessionFieldsFragment) => Promise<ApiRefusal | null> {
  const client = useClient();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return async (signedIn) => {
    const session = toSession(signedIn);
    rememberDevice(session.user.email, signedIn.deviceToken);
    const { error } = session.user.role === 'CUSTOMER' ? await mergeGuestCart(client, session.token) : { error: null };
    signIn(session);
    if (error) return error;
    navigate(safeRedirect(params.get('redirect')), { replace: true });
    return null;
  };
}
