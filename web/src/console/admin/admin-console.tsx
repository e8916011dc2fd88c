import { Route, Routes } from 'react-router';
import { ConsoleShell, HomeScreen, lazyScreen, type ConsoleLink } from '../console-shell';
import { usePageTitle } from '../../ui/page-title';
import OpsPage from '../../pages/ops-page';

// Every screen but the landing one comes in its own chunk when first opened (`lazyScreen`).
const Brands = lazyScreen(() => import('./brands'), 'Brands');
const HomeContentEditor = lazyScreen(() => import('./home-content'), 'HomeContentEditor');
const ShopProfiles = lazyScreen(() => import('./shops'), 'ShopProfiles');
const ShopApplicationsScreen = lazyScreen(() => import('./shop-applications'), 'ShopApplicationsScreen');
const PointsMall = lazyScreen(() => import('./points-mall'), 'PointsMall');
const ReviewModeration = lazyScreen(() => import('./reviews'), 'ReviewModeration');
const PayoutBatchDetail = lazyScreen(() => import('./payouts'), 'PayoutBatchDetail');
const PayoutBatchList = lazyScreen(() => import('./payouts'), 'PayoutBatchList');
const Reconciliation = lazyScreen(() => import('./reconciliation'), 'Reconciliation');
const PaymentDesk = lazyScreen(() => import('./payments'), 'PaymentDesk');
const Disputes = lazyScreen(() => import('./disputes'), 'Disputes');
const AdminOrdersScreen = lazyScreen(() => import('./orders'), 'AdminOrdersScreen');
const Customers = lazyScreen(() => import('./customers'), 'Customers');
const Staff = lazyScreen(() => import('./staff'), 'Staff');
const Webhooks = lazyScreen(() => import('../webhooks'), 'Webhooks');
const AuditLog = lazyScreen(() => import('../audit-log'), 'AuditLog');

const LINKS: ConsoleLink[] = [
  { to: '/admin', label: 'Live operations', end: true, permission: 'OPS_READ' },
  { to: '/admin/brands', label: 'Brands', permission: 'PLATFORM_CONTENT_MANAGE' },
  { to: '/admin/home-content', label: 'Home content', permission: 'PLATFORM_CONTENT_MANAGE' },
  { to: '/admin/shop-applications', label: 'Shop applications', permission: 'PLATFORM_SHOPS_MANAGE' },
  { to: '/admin/shops', label: 'Shops', permission: 'PLATFORM_SHOPS_READ' },
  { to: '/admin/points', label: 'Points mall', permission: 'PLATFORM_POINTS_MANAGE' },
  { to: '/admin/reviews', label: 'Review moderation', permission: 'PLATFORM_REVIEWS_MODERATE' },
  { to: '/admin/payouts', label: 'Payouts', permission: 'PLATFORM_MONEY_MANAGE' },
  { to: '/admin/reconciliation', label: 'Reconciliation', permission: 'PLATFORM_MONEY_MANAGE' },
  { to: '/admin/payments', label: 'Payments', permission: 'PLATFORM_MONEY_MANAGE' },
  { to: '/admin/orders', label: 'Orders', permission: 'PLATFORM_ORDERS_READ' },
  { to: '/admin/disputes', label: 'Disputes', permission: 'PLATFORM_DISPUTES_RULE' },
  { to: '/admin/customers', label: 'Customers', permission: 'PLATFORM_CUSTOMERS_READ' },
  { to: '/admin/staff', label: 'Staff', permission: 'PLATFORM_STAFF_MANAGE' },
  { to: '/admin/webhooks', label: 'Webhooks', permission: 'PLATFORM_WEBHOOKS_MANAGE' },
  { to: '/admin/audit-log', label: 'Audit log', permission: 'PLATFORM_AUDIT_READ' },
];

/** The platform console (`/admin/*`): its own chunk; the live operations feed is its dashboard. */
export default function AdminConsole() {
  usePageTitle('Platform console');
  return (
    <ConsoleShell title="Platform console" role="PLATFORM_ADMIN" links={LINKS}>
      <Routes>
        <Route
          index
          element={
            <HomeScreen links={LINKS}>
              <OpsPage />
            </HomeScreen>
          }
        />
        <Route path="brands" element={<Brands />} />
        <Route path="home-content" element={<HomeContentEditor />} />
        <Route path="shop-applications" element={<ShopApplicationsScreen />} />
        <Route path="shops" element={<ShopProfiles />} />
        <Route path="points" element={<PointsMall />} />
        <Route path="reviews" element={<ReviewModeration />} />
        <Route path="payouts" element={<PayoutBatchList />} />
        <Route path="payouts/:id" element={<PayoutBatchDetail />} />
        <Route path="reconciliation" element={<Reconciliation />} />
        <Route path="payments" element={<PaymentDesk />} />
        <Route path="orders" element={<AdminOrdersScreen />} />
        <Route path="disputes" element={<Disputes />} />
        <Route path="customers" element={<Customers />} />
        <Route path="staff" element={<Staff />} />
        <Route path="webhooks" element={<Webhooks />} />
        <Route path="audit-log" element={<AuditLog platform />} />
        <Route path="*" element={<p role="alert">No such screen in the platform console.</p>} />
      </Routes>
    </ConsoleShell>
  );
}
