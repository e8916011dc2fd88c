import { useMemo, type ReactNode } from 'react';
import { Provider } from 'urql';
import { createApiClient } from '../api/client';
import { useSession } from '../auth/session';

/** One urql client per bearer token (a sign-in or sign-out starts from an empty cache). */
export function ApiProvider({ children }: { children: ReactNode }) {
  const { session, signOut } = useSession();
  const token = session?.token ?? null;
  const client = useMemo(() => createApiClient(token, signOut), [token, signOut]);
  return <Provider value={client}>{children}</Provider>;
}
