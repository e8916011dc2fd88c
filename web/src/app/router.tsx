import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './layout';
import { RouteError } from './route-error';

/** Each page is its own chunk, loaded when its route is first visited. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** Every storefront destination home content may link to, plus the shopper's and operator's pages. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Layout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      { index: true, ...page(() => import('../pages/home-page')) },
      { path: 'products/:id', ...page(() => import('../pages/product-page')) },
      { path: 'shops/:slug', ...page(() => import('../pages/shop-page')) },
      { path: 'categories', ...page(() => import('../pages/categories-page')) },
      { path: 'categories/:id', ...page(() => import('../pages/category-page')) },
      { path: 'brands/:id', ...page(() => import('../pages/brand-page')) },
      { path: 'search', ...page(() => import('../pages/search-page')) },
      { path: 'flash-sales', ...page(() => import('../pages/flash-sales-page')) },
      { path: 'group-buys', ...page(() => import('../pages/group-buys-page')) },
      { path: 'points', ...page(() => import('../pages/points-page')) },
      { path: 'coupons', ...page(() => import('../pages/coupons-page')) },
      { path: 'login', ...page(() => import('../pages/login-page')) },
      { path: 'register', ...page(() => import('../pages/register-page')) },
      { path: 'cart', ...page(() => import('../pages/cart-page')) },
      { path: 'checkout', ...page(() => import('../pages/checkout-page')) },
      { path: 'checkout/payment/:id', ...page(() => import('../pages/payment-page')) },
      { path: 'orders', ...page(() => import('../pages/orders-page')) },
      { path: 'orders/:id', ...page(() => import('../pages/order-page')) },
      { path: 'account', ...page(() => import('../pages/account-page')) },
      { path: 'favorites', ...page(() => import('../pages/favorites-page')) },
      { path: 'ops', ...page(() => import('../pages/ops-page')) },
      { path: 'join-shop', ...page(() => import('../pages/join-shop-page')) },
      { path: 'join-staff', ...page(() => import('../pages/join-staff-page')) },
      { path: 'open-shop', ...page(() => import('../pages/open-shop-page')) },
      { path: '*', ...page(() => import('../pages/not-found-page')) },
    ],
  },
  // The consoles have their own frame and their own chunks: the storefront's first page never loads them.
  { path: '/merchant/*', ErrorBoundary: RouteError, HydrateFallback: () => null, ...page(() => import('../console/merchant/merchant-console')) },
  { path: '/admin/*', ErrorBoundary: RouteError, HydrateFallback: () => null, ...page(() => import('../console/admin/admin-console')) },
];

export const router = createBrowserRouter(routes);
