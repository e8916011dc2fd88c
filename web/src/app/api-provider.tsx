import { useMemo, type ReactNode } from 'react';
import { Provider } from 'urql';
import { createApiClient } from '../api/client';
import { useSession } from '../auth/session';

/** One urql client per bearer token and acting shop (a sign-in, a sign-out or another shop starts from an empty cache). */
export function ApiProvider({ children }: { children: ReactNode }) {
  const { session, signOut, shopId } = useSession();
  const token = session?.token ?? null;
  const client = useMemo(() => createApiClient(token, shopId, signOut), [token, shopId, signOut]);
  return <Provider value={client}>{children}</Provider>;
}
