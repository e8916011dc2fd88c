import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

import type { Role } from '../gql/graphql';

export type { Role };

const ROLES: readonly string[] = ['CUSTOMER', 'SHOP_OPERATOR', 'PLATFORM_ADMIN'] satisfies Role[];

export interface SessionUser {
  id: number;
  email: string;
  displayName: string;
  role: Role;
  shopId: number | null;
}

/** What sign-in and registration return: an opaque bearer token, its expiry and the account. */
export interface Session {
  token: string;
  expiresAt: string;
  user: SessionUser;
}

interface SessionState {
  session: Session | null;
  signIn(session: Session): void;
  signOut(): void;
}

const STORAGE_KEY = 'mallfront.session';

function stored(): Session | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    // A session kept by an older build (another spelling of the role) is signed in again.
    if (typeof session.token !== 'string' || Date.parse(session.expiresAt) <= Date.now() || !ROLES.includes(session.user.role)) return null;
    return session;
  } catch {
    return null;
  }
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(stored);
  const signIn = useCallback((next: Session) => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    setSession(next);
  }, []);
  const signOut = useCallback(() => {
    localStorage.removeItem(STORAGE_KEY);
    setSession(null);
  }, []);
  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}
