import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession, type Role } from './session';
import { Loading } from '../ui/query-state';

/** The sign-in page that returns here afterwards (spec "Client sign-in behaviour"). */
export function loginPathFor(here: { pathname: string; search: string }): string {
  return `/login?redirect=${encodeURIComponent(here.pathname + here.search)}`;
}

const ROLE_NAMES: Record<Role, string> = { CUSTOMER: 'customer', SHOP_OPERATOR: 'shop operator', PLATFORM_ADMIN: 'platform admin' };

/** Renders its children for a signed-in account of one of `roles`; sends anyone else to sign in. */
export function RequireSignIn({ roles, children }: { roles: Role[]; children: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!session) navigate(loginPathFor(location), { replace: true });
  }, [session, location, navigate]);
  if (!session) return <Loading what="Taking you to sign in" />;
  if (!roles.includes(session.user.role)) {
    return (
      <div className="notice notice-error" role="alert">
        This page is for a {roles.map((r) => ROLE_NAMES[r]).join(' or ')} account; you are signed in as a {ROLE_NAMES[session.user.role]}.
      </div>
    );
  }
  return <>{children}</>;
}
