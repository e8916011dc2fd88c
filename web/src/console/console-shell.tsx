import { createContext, lazy, Suspense, useContext, useEffect, type ComponentType, type ReactNode } from 'react';
import { Link, Navigate, NavLink, useLocation } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from './gql';
import type { ConsoleShellQuery as ConsoleShellData, Permission, ShopRole } from './gql/graphql';
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
    me {
      id
      shopId
      permissions
      memberships {
        shopId
        shopName
        role
      }
    }
  }
`);

export interface ConsoleLink {
  to: string;
  label: string;
  end?: boolean;
  /** What the screen needs (the API's own permission for its reads): a member without it is not offered it. */
  permission?: Permission;
}

type Staff = ConsoleShellData['me'];

/** What the signed-in member may do here, for screens that offer more than one thing. */
const AccessContext = createContext<readonly Permission[]>([]);
export const usePermissions = (): readonly Permission[] => useContext(AccessContext);

/** A shop role as a sentence says it ("finance", "fulfilment"). */
export const shopRoleLabel = (role: ShopRole): string => role.toLowerCase();

/** Whether a member holding `permissions` may open the screen `link`. */
const opens = (link: ConsoleLink, permissions: readonly Permission[]): boolean => !link.permission || permissions.includes(link.permission);

/**
 * The screen of the console's menu that `pathname` is on (its own address or one below it, the
 * deepest that fits), if any. The home screen is left out: `HomeScreen` takes a member it does not
 * serve to their first screen.
 */
const screenAt = (links: readonly ConsoleLink[], pathname: string): ConsoleLink | undefined =>
  links
    .filter((l) => !l.end && (pathname === l.to || pathname.startsWith(`${l.to}/`)))
    .sort((a, b) => b.to.length - a.to.length)[0];

/** The screens `staff` may open, in the console's order. */
export const allowedLinks = (links: readonly ConsoleLink[], staff: Staff): ConsoleLink[] => links.filter((l) => opens(l, staff.permissions));

/**
 * The console's first screen for a member whose role opens it; anyone else is taken to the first
 * screen their role opens (a shop's finance member lands on its orders, with money beside them).
 */
/**
 * A console screen loaded when it is first opened: the console's own chunk holds its frame and its
 * landing screen, so a console opens after downloading only those (Lighthouse's phone measures that
 * landing); the frame's Suspense shows the loading line meanwhile.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React's own `lazy` takes any component type
type AnyComponent = ComponentType<any>;
export function lazyScreen<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as Extract<M[K], AnyComponent> }));
}

export function HomeScreen({ links, children }: { links: readonly ConsoleLink[]; children: ReactNode }) {
  const permissions = usePermissions();
  if (opens(links[0], permissions)) return <>{children}</>;
  const first = links.find((l) => opens(l, permissions));
  return first ? <Navigate to={first.to} replace /> : null;
}

/** A member of several shops picks the one to work in; the choice is sent as `X-Shop-Id` from then on. */
function ShopSwitcher({ staff }: { staff: Staff }) {
  const { chooseShop } = useSession();
  if (staff.memberships.length < 2) return null;
  return (
    <label className="shop-switcher">
      Shop{' '}
      <select aria-label="Shop to work in" value={staff.shopId ?? ''} onChange={(event) => chooseShop(event.target.value === '' ? null : Number(event.target.value))}>
        {staff.shopId === null ? <option value="">Choose a shop</option> : null}
        {staff.memberships.map((m) => (
          <option key={m.shopId} value={m.shopId}>
            {m.shopName} ({shopRoleLabel(m.role)})
          </option>
        ))}
      </select>
    </label>
  );
}

function ShopChooser({ staff }: { staff: Staff }) {
  const { chooseShop } = useSession();
  return (
    <section aria-labelledby="choose-shop">
      <h1 id="choose-shop">Choose the shop to work in</h1>
      <p className="meta">You are a member of {staff.memberships.length} shops. What you see and change is the chosen shop&apos;s; you can switch at any time at the top.</p>
      <ul className="shop-choices">
        {staff.memberships.map((m) => (
          <li key={m.shopId}>
            <button type="button" onClick={() => chooseShop(m.shopId)}>
              {m.shopName}
            </button>{' '}
            <span className="meta">as {shopRoleLabel(m.role)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The staff's frame once the API said who they are: the screens their role opens, or the shop to choose first. */
function StaffFrame({ title, links, staff, children }: { title: string; links: ConsoleLink[]; staff: Staff; children: ReactNode }) {
  const { shopId, chooseShop } = useSession();
  // A remembered shop the member no longer belongs to is forgotten (the API acts for no shop then).
  const stale = shopId !== null && !staff.memberships.some((m) => m.shopId === shopId);
  useEffect(() => {
    if (stale) chooseShop(null);
  }, [stale, chooseShop]);
  const mustChoose = staff.memberships.length > 1 && staff.shopId === null;
  const allowed = mustChoose ? [] : allowedLinks(links, staff);
  // A screen reached by its address that the member's role does not open is not shown either.
  const screen = screenAt(links, useLocation().pathname);
  const closed = screen && !opens(screen, staff.permissions) ? screen : null;
  return (
    <div className="console-body">
      <nav aria-label={title} className="console-nav">
        <ShopSwitcher staff={staff} />
        <ul>
          {allowed.map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} end={l.end}>
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="console-main" className="console-main">
        {mustChoose ? (
          <ShopChooser staff={staff} />
        ) : allowed.length === 0 ? (
          <div className="notice" role="alert">
            Your role gives you no screen of this console yet. Ask an owner of the shop for another role.
          </div>
        ) : closed ? (
          <div className="notice" role="alert">
            Your role does not open {closed.label}. The menu lists the screens you can use.
          </div>
        ) : (
          <AccessContext.Provider value={staff.permissions}>
            <Suspense fallback={<Loading />}>{children}</Suspense>
          </AccessContext.Provider>
        )}
      </main>
    </div>
  );
}

/**
 * The frame of both consoles: a side navigation, the signed-in account, and the screen. Only the
 * role the console is for gets past it, and each member is offered the screens their role opens
 * (the API enforces the same permissions on every field anyway).
 */
export function ConsoleShell({ title, role, links, children }: { title: string; role: Role; links: ConsoleLink[]; children: ReactNode }) {
  const { session } = useSession();
  const [result] = useQuery({ query: ConsoleShellQuery, pause: session?.user.role !== role });
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
      <RequireSignIn roles={[role]}>
        <QueryResult result={result}>
          {(data) => (
            <CurrencyProvider currency={data.currency}>
              <StaffFrame title={title} links={links} staff={data.me}>
                {children}
              </StaffFrame>
            </CurrencyProvider>
          )}
        </QueryResult>
      </RequireSignIn>
    </div>
  );
}
