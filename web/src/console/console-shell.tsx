import { Suspense, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from './gql';
import { CurrencyProvider } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { Loading } from '../ui/query-state';
import { RequireSignIn } from '../auth/require-sign-in';
import { useSession, type Role } from '../auth/session';
import './console.css';

const ConsoleShellQuery = graphql(`
  query ConsoleShell {
    currency {
      ...CurrencyFields
    }
  }
`);

export interface ConsoleLink {
  to: string;
  label: string;
  end?: boolean;
}

/**
 * The frame of both consoles: a side navigation, the signed-in account, and the screen. Only the
 * role the console is for gets past it; the API enforces the same roles on every field anyway.
 */
export function ConsoleShell({ title, role, links, children }: { title: string; role: Role; links: ConsoleLink[]; children: ReactNode }) {
  const { session } = useSession();
  const [result] = useQuery({ query: ConsoleShellQuery });
  return (
    <div className="console">
      <a href="#console-main" className="skip-link">
        Skip to content
      </a>
      <header className="console-header">
        <Link to={links[0].to} className="brand-mark">
          {title}
        </Link>
        <span className="meta">{session ? `${session.user.displayName} (${session.user.email})` : ''}</span>
        <Link to="/">Storefront</Link>
      </header>
      <div className="console-body">
        <nav aria-label={title} className="console-nav">
          <ul>
            {links.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.end}>
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="console-main" className="console-main">
          <RequireSignIn roles={[role]}>
            <QueryResult result={result}>
              {(data) => (
                <CurrencyProvider currency={data.currency}>
                  <Suspense fallback={<Loading />}>{children}</Suspense>
                </CurrencyProvider>
              )}
            </QueryResult>
          </RequireSignIn>
        </main>
      </div>
    </div>
  );
}
