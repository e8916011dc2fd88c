import { Route, Routes } from 'react-router';
import { ConsoleShell, HomeScreen, lazyScreen, type ConsoleLink } from '../console-shell';
import { usePageTitle } from '../../ui/page-title';
import { Dashboard } from './dashboard';

// Every screen but the landing one comes in its own chunk when first opened (`lazyScreen`).
const ProductList = lazyScreen(() => import('./products'), 'ProductList');
const ProductEditor = lazyScreen(() => import('./products'), 'ProductEditor');
const OrderList = lazyScreen(() => import('./orders'), 'OrderList');
const OrderDetail = lazyScreen(() => import('./orders'), 'OrderDetail');
const Refunds = lazyScreen(() => import('./after-sale'), 'Refunds');
const Reviews = lazyScreen(() => import('./after-sale'), 'Reviews');
const CouponTemplates = lazyScreen(() => import('./promotions'), 'CouponTemplates');
const FlashSales = lazyScreen(() => import('./promotions'), 'FlashSales');
const GroupBuys = lazyScreen(() => import('./promotions'), 'GroupBuys');
const FreightTemplates = lazyScreen(() => import('./freight'), 'FreightTemplates');
const MoneyScreen = lazyScreen(() => import('./money'), 'MoneyScreen');
const Members = lazyScreen(() => import('./members'), 'Members');
const Webhooks = lazyScreen(() => import('../webhooks'), 'Webhooks');
const AuditLog = lazyScreen(() => import('../audit-log'), 'AuditLog');

/** Each screen with the permission its reads need (src/shared/permissions.ts): a member sees the ones their role opens. */
const LINKS: ConsoleLink[] = [
  { to: '/merchant', label: 'Dashboard', end: true, permission: 'OPS_READ' },
  { to: '/merchant/products', label: 'Products', permission: 'SHOP_CATALOG_MANAGE' },
  { to: '/merchant/orders', label: 'Orders', permission: 'SHOP_ORDERS_READ' },
  { to: '/merchant/refunds', label: 'Refunds', permission: 'SHOP_AFTER_SALE_MANAGE' },
  { to: '/merchant/reviews', label: 'Reviews', permission: 'SHOP_AFTER_SALE_MANAGE' },
  { to: '/merchant/coupons', label: 'Coupon templates', permission: 'SHOP_PROMOTIONS_MANAGE' },
  { to: '/merchant/flash-sales', label: 'Flash sales', permission: 'SHOP_PROMOTIONS_MANAGE' },
  { to: '/merchant/group-buys', label: 'Group buys', permission: 'SHOP_PROMOTIONS_MANAGE' },
  { to: '/merchant/freight', label: 'Freight templates', permission: 'SHOP_CATALOG_MANAGE' },
  { to: '/merchant/money', label: 'Money', permission: 'SHOP_MONEY_READ' },
  { to: '/merchant/members', label: 'Members', permission: 'SHOP_MEMBERS_READ' },
  { to: '/merchant/webhooks', label: 'Webhooks', permission: 'SHOP_WEBHOOKS_MANAGE' },
  { to: '/merchant/audit-log', label: 'Audit log', permission: 'SHOP_AUDIT_READ' },
];

/** The shop console (`/merchant/*`): its own chunk, loaded only when an operator opens it. */
export default function MerchantConsole() {
  usePageTitle('Shop console');
  return (
    <ConsoleShell title="Shop console" role="SHOP_OPERATOR" links={LINKS}>
      <Routes>
        <Route
          index
          element={
            <HomeScreen links={LINKS}>
              <Dashboard />
            </HomeScreen>
          }
        />
        <Route path="products" element={<ProductList />} />
        <Route path="products/new" element={<ProductEditor />} />
        <Route path="products/:id" element={<ProductEditor />} />
        <Route path="orders" element={<OrderList />} />
        <Route path="orders/:id" element={<OrderDetail />} />
        <Route path="refunds" element={<Refunds />} />
        <Route path="reviews" element={<Reviews />} />
        <Route path="coupons" element={<CouponTemplates />} />
        <Route path="flash-sales" element={<FlashSales />} />
        <Route path="group-buys" element={<GroupBuys />} />
        <Route path="freight" element={<FreightTemplates />} />
        <Route path="money" element={<MoneyScreen />} />
        <Route path="members" element={<Members />} />
        <Route path="webhooks" element={<Webhooks />} />
        <Route path="audit-log" element={<AuditLog platform={false} />} />
        <Route path="*" element={<p role="alert">No such screen in the shop console.</p>} />
      </Routes>
    </ConsoleShell>
  );
}
