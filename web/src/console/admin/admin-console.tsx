import { Route, Routes } from 'react-router';
import { ConsoleShell, type ConsoleLink } from '../console-shell';
import { usePageTitle } from '../../ui/page-title';
import OpsPage from '../../pages/ops-page';
import { Brands } from './brands';
import { HomeContentEditor } from './home-content';
import { ShopProfiles } from './shops';
import { PointsMall } from './points-mall';
import { ReviewModeration } from './reviews';
import { PayoutBatchDetail, PayoutBatchList } from './payouts';
import { Reconciliation } from './reconciliation';
import { PaymentDesk } from './payments';
import { Disputes } from './disputes';
import { Customers } from './customers';
import { Webhooks } from '../webhooks';

const LINKS: ConsoleLink[] = [
  { to: '/admin', label: 'Live operations', end: true },
  { to: '/admin/brands', label: 'Brands' },
  { to: '/admin/home-content', label: 'Home content' },
  { to: '/admin/shops', label: 'Shop profiles' },
  { to: '/admin/points', label: 'Points mall' },
  { to: '/admin/reviews', label: 'Review moderation' },
  { to: '/admin/payouts', label: 'Payouts' },
  { to: '/admin/reconciliation', label: 'Reconciliation' },
  { to: '/admin/payments', label: 'Payments' },
  { to: '/admin/disputes', label: 'Disputes' },
  { to: '/admin/customers', label: 'Customers' },
  { to: '/admin/webhooks', label: 'Webhooks' },
];

/** The platform console (`/admin/*`): its own chunk; the live operations feed is its dashboard. */
export default function AdminConsole() {
  usePageTitle('Platform console');
  return (
    <ConsoleShell title="Platform console" role="PLATFORM_ADMIN" links={LINKS}>
      <Routes>
        <Route index element={<OpsPage />} />
        <Route path="brands" element={<Brands />} />
        <Route path="home-content" element={<HomeContentEditor />} />
        <Route path="shops" element={<ShopProfiles />} />
        <Route path="points" element={<PointsMall />} />
        <Route path="reviews" element={<ReviewModeration />} />
        <Route path="payouts" element={<PayoutBatchList />} />
        <Route path="payouts/:id" element={<PayoutBatchDetail />} />
        <Route path="reconciliation" element={<Reconciliation />} />
        <Route path="payments" element={<PaymentDesk />} />
        <Route path="disputes" element={<Disputes />} />
        <Route path="customers" element={<Customers />} />
        <Route path="webhooks" element={<Webhooks />} />
        <Route path="*" element={<p role="alert">No such screen in the platform console.</p>} />
      </Routes>
    </ConsoleShell>
  );
}
