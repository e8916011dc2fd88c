import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useClient } from 'urql';
import { graphql } from '../gql';
import { RequireSignIn } from '../auth/require-sign-in';
import { useSession, type Role } from '../auth/session';
import { usePageTitle } from '../ui/page-title';

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
 * Reads the signed-in account again after it joined a staff (its role changed): the console then
 * opens without signing in anew.
 */
export function useReloadAccount(): () => Promise<void> {
  const client = useClient();
  const { updateUser } = useSession();
  return async () => {
    const me = await client.query(JoinedAccount, {}, { requestPolicy: 'network-only' }).toPromise();
    if (me.data) updateUser({ ...me.data.me, shopId: me.data.me.shopId ?? null });
  };
}

/**
 * A page an invitation link opens (`/join-shop?token=…`, `/join-staff?token=…`): the accepting part
 * for a signed-in account of `roles` (the kinds that may accept, and the kind accepting makes, so the
 * page still shows its answer after the account changed; anyone else signs in first), or a plain
 * notice when the link carries no token.
 */
export function JoinLinkPage({ title, heading, inviter, roles, children }: { title: string; heading: string; inviter: string; roles: Role[]; children: (token: string) => ReactNode }) {
  usePageTitle(title);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <section className="auth-form">
      <h1>{heading}</h1>
      {token === '' ? (
        <div className="notice notice-error" role="alert">
          This link has no invitation in it. Ask {inviter} for the link again.
        </div>
      ) : (
        <RequireSignIn roles={roles}>{children(token)}</RequireSignIn>
      )}
    </section>
  );
}
