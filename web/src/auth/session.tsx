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
  /** The account as the API reads it now (a role that changed: an accepted invitation makes a customer a shop member). */
  updateUser(user: SessionUser): void;
  /**
   * The shop a member of several shops works in (sent as `X-Shop-Id`); null lets the API choose the
   * only membership. Kept with the session, so a reload stays in the same shop.
   */
  shopId: number | null;
  chooseShop(shopId: number | null): void;
}

const STORAGE_KEY = 'mallfront.session';
const SHOP_KEY = 'mallfront.shop';

function storedShop(): number | null {
  const value = Number(localStorage.getItem(SHOP_KEY));
  return Number.isInteger(value) && value > 0 ? value : null;
}

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
  const [shopId, setShopId] = useState<number | null>(() => (session ? storedShop() : null));
  const chooseShop = useCallback((next: number | null) => {
    if (next === null) localStorage.removeItem(SHOP_KEY);
    else localStorage.setItem(SHOP_KEY, String(next));
    setShopId(next);
  }, []);
  const signIn = useCallback(
    (next: Session) => {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      setSession(next);
      chooseShop(null);
    },
    [chooseShop],
  );
  const signOut = useCallback(() => {
    localStorage.removeItem(STORAGE_KEY);
    setSession(null);
    chooseShop(null);
  }, [chooseShop]);
  const updateUser = useCallback((user: SessionUser) => {
    setSession((current) => {
      if (!current) return current;
      const next = { ...current, user };
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  const value = useMemo(() => ({ session, signIn, signOut, updateUser, shopId, chooseShop }), [session, signIn, signOut, updateUser, shopId, chooseShop]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}
