import { useNavigate, useSearchParams } from 'react-router';
import { useClient } from 'urql';
import type { ApiRefusal } from '../api/errors';
import { useSession } from './session';
import { toSession } from './session-fields';
import { rememberDevice } from './device-tokens';
import type { SessionFieldsFragment } from '../gql/graphql';
import { safeRedirect } from './safe-redirect';
import { takeCartAdd } from './pending-cart-add';
import { addToCart } from '../cart/add-to-cart';

/**
 * After sign-in or registration: remember this browser as a device of the account, add the item an
 * anonymous "Add to cart" remembered, store the session, and go back to `redirect` when it is a
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
    const pending = takeCartAdd();
    const error = pending && session.user.role === 'CUSTOMER' ? await addToCart(client, pending, session.token) : null;
    signIn(session);
    if (error) return error;
    navigate(safeRedirect(params.get('redirect')), { replace: true });
    return null;
  };
}
