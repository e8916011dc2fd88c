import { useNavigate, useSearchParams } from 'react-router';
import { useClient } from 'urql';
import type { ApiRefusal } from '../api/errors';
import { useSession, type Session } from './session';
import { safeRedirect } from './safe-redirect';
import { takeCartAdd } from './pending-cart-add';
import { addToCart } from '../cart/add-to-cart';

/**
 * After sign-in or registration: add the item an anonymous "Add to cart" remembered, store the
 * session, and go back to `redirect` when it is a same-origin path (else `/`).
 */
export function useFinishSignIn(): (session: Session) => Promise<ApiRefusal | null> {
  const client = useClient();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return async (session) => {
    const pending = takeCartAdd();
    const error = pending && session.user.role === 'CUSTOMER' ? await addToCart(client, pending, session.token) : null;
    signIn(session);
    if (error) return error;
    navigate(safeRedirect(params.get('redirect')), { replace: true });
    return null;
  };
}
