import { Suspense } from 'react';
import { Link, NavLink, Outlet, useLocation, useMatch, useNavigate, useNavigation } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { useSession } from '../auth/session';
import { loginPathFor } from '../auth/require-sign-in';
import { Loading } from '../ui/query-state';
import { SearchBox } from '../search/search-box';
import { useGuestCartCount } from '../cart/guest-cart';

const Logout = graphql(`
  mutation Logout {
    logout {
      loggedOut
    }
  }
`);

const HeaderCartCount = graphql(`
  query HeaderCartCount {
    cart {
      itemCount
    }
  }
`);

/** The cart link with its item count: the guest cart's while signed out, the account's after. */
function CartLink({ count }: { count: number }) {
  return (
    <NavLink to="/cart" className="cart-link" aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}>
      Cart{count > 0 ? <span className="cart-count">{count > 99 ? '99+' : count}</span> : null}
    </NavLink>
  );
}

function CustomerCartLink() {
  return <CartLink count={useCustomerCartCount()} />;
}

function useCustomerCartCount(): number {
  const [result] = useQuery({ query: HeaderCartCount, requestPolicy: 'cache-and-network' });
  return result.data?.cart.itemCount ?? 0;
}

function GuestCartLink() {
  return <CartLink count={useGuestCartCount()} />;
}

/** The tab bar's pictures: plain strokes in the text's colour, drawn here so no font or image is needed. */
const TAB_ICONS = {
  home: 'M3 11 12 4l9 7M6 9.5V20h12V9.5',
  categories: 'M4 5h7v7H4zM13 5h7v7h-7zM4 14h7v6H4zM13 14h7v6h-7z',
  cart: 'M3 4h2.5l2.2 11h10.6L20.5 7H6.4M9.5 20a1 1 0 1 0 0-.01M17 20a1 1 0 1 0 0-.01',
  account: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4.5 20.5c1.2-3.6 4-5.5 7.5-5.5s6.3 1.9 7.5 5.5',
};

function TabIcon({ name }: { name: keyof typeof TAB_ICONS }) {
  return (
    <svg aria-hidden="true" className="tab-icon" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={TAB_ICONS[name]} />
    </svg>
  );
}

/** The tab bar's cart: the same counts as the header's (one query, shared by urql's cache). */
function CustomerTabCart() {
  return <TabCartLink count={useCustomerCartCount()} />;
}

function GuestTabCart() {
  return <TabCartLink count={useGuestCartCount()} />;
}

function TabCartLink({ count }: { count: number }) {
  return (
    <NavLink to="/cart" aria-label={`Cart: ${count} ${count === 1 ? 'item' : 'items'}`}>
      <TabIcon name="cart" />
      Cart{count > 0 ? <span className="cart-count">{count}</span> : null}
    </NavLink>
  );
}

/**
 * A phone's way around the mall (shown at phone widths only, styles.css): home, categories, cart and
 * the account, always under the thumb. Product and checkout pages keep the bottom for their buy and
 * pay bars, so the tab bar leaves it to them there.
 */
function TabBar() {
  const { session } = useSession();
  const onProduct = useMatch('/products/:id');
  const onCheckout = useMatch('/checkout/*');
  if (onProduct || onCheckout) return null;
  const role = session?.user.role;
  const account = !session ? { to: '/login', label: 'Account' } : role === 'CUSTOMER' ? { to: '/account', label: 'Account' } : { to: role === 'PLATFORM_ADMIN' ? '/admin' : '/merchant', label: 'Console' };
  return (
    <nav aria-label="Sections" className="tab-bar">
      <ul>
        <li>
          <NavLink to="/" end>
            <TabIcon name="home" />
            Home
          </NavLink>
        </li>
        <li>
          <NavLink to="/categories">
            <TabIcon name="categories" />
            Categories
          </NavLink>
        </li>
        <li>
          {role === 'CUSTOMER' ? <CustomerTabCart /> : <GuestTabCart />}
        </li>
        <li>
          <NavLink to={account.to}>
            <TabIcon name="account" />
            {account.label}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

/**
 * Sign in, and come back to the page it was clicked on (the cart, a product); from the sign-in or
 * registration page itself, or from the home page, there is nothing to come back to.
 */
function SignInLink() {
  const location = useLocation();
  const back = ['/', '/login', '/register'].includes(location.pathname) ? '/login' : loginPathFor(location);
  return <NavLink to={back}>Sign in</NavLink>;
}

function AccountNav() {
  const { session, signOut } = useSession();
  const [, logout] = useMutation(Logout);
  const navigate = useNavigate();
  if (!session) {
    return (
      <ul className="account-nav">
        <li>
          <GuestCartLink />
        </li>
        <li>
          <SignInLink />
        </li>
        <li>
          <NavLink to="/register">Register</NavLink>
        </li>
      </ul>
    );
  }
  const { role } = session.user;
  const out = async () => {
    await logout({});
    signOut();
    navigate('/');
  };
  return (
    <ul className="account-nav">
      {role === 'CUSTOMER' ? (
        <>
          <li>
            <CustomerCartLink />
          </li>
          <li>
            <NavLink to="/orders">Orders</NavLink>
          </li>
          <li>
            <NavLink to="/favorites">Favorites</NavLink>
          </li>
          <li>
            <NavLink to="/account">{session.user.displayName}</NavLink>
          </li>
        </>
      ) : (
        <>
          <li>
            <NavLink to={role === 'PLATFORM_ADMIN' ? '/admin' : '/merchant'}>{role === 'PLATFORM_ADMIN' ? 'Platform console' : 'Shop console'}</NavLink>
          </li>
          <li>
            <NavLink to="/ops">Operations</NavLink>
          </li>
        </>
      )}
      <li>
        <button type="button" className="link-button" onClick={out}>
          Sign out
        </button>
      </li>
    </ul>
  );
}

export function Layout() {
  const navigation = useNavigation();
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="site-header">
        <div className="header-row">
          <Link to="/" className="brand-mark">
            Mallfront
          </Link>
          <SearchBox />
          <nav aria-label="Account">
            <AccountNav />
          </nav>
        </div>
        <nav aria-label="Promotions" className="promo-nav">
          <ul>
            <li>
              <NavLink to="/flash-sales">Flash sales</NavLink>
            </li>
            <li>
              <NavLink to="/group-buys">Group buys</NavLink>
            </li>
            <li>
              <NavLink to="/coupons">Coupons</NavLink>
            </li>
            <li>
              <NavLink to="/points">Points mall</NavLink>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" className="page" aria-busy={navigation.state === 'loading'}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <TabBar />
      <footer className="site-footer">
        <p>
          Mallfront: one storefront, many shops. <Link to="/open-shop">Open a shop</Link>
        </p>
      </footer>
    </>
  );
}
