import { Suspense } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
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
    <NavLink to="/cart" aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}>
      Cart{count > 0 ? <span className="cart-count">{count}</span> : null}
    </NavLink>
  );
}

function CustomerCartLink() {
  const [result] = useQuery({ query: HeaderCartCount, requestPolicy: 'cache-and-network' });
  return <CartLink count={result.data?.cart.itemCount ?? 0} />;
}

function GuestCartLink() {
  return <CartLink count={useGuestCartCount()} />;
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
      <footer className="site-footer">
        <p>
          Mallfront: one storefront, many shops. <Link to="/open-shop">Open a shop</Link>
        </p>
      </footer>
    </>
  );
}
