import { Route, Routes } from 'react-router';
import { ConsoleShell, type ConsoleLink } from '../console-shell';
import { usePageTitle } from '../../ui/page-title';
import { Dashboard } from './dashboard';
import { ProductList, ProductEditor } from './products';
import { OrderList, OrderDetail } from './orders';
import { Refunds, Reviews } from './after-sale';
import { CouponTemplates, FlashSales, GroupBuys } from './promotions';
import { FreightTemplates } from './freight';
import { MoneyScreen } from './money';
import { Webhooks } from '../webhooks';

const LINKS: ConsoleLink[] = [
  { to: '/merchant', label: 'Dashboard', end: true },
  { to: '/merchant/products', label: 'Products' },
  { to: '/merchant/orders', label: 'Orders' },
  { to: '/merchant/refunds', label: 'Refunds' },
  { to: '/merchant/reviews', label: 'Reviews' },
  { to: '/merchant/coupons', label: 'Coupon templates' },
  { to: '/merchant/flash-sales', label: 'Flash sales' },
  { to: '/merchant/group-buys', label: 'Group buys' },
  { to: '/merchant/freight', label: 'Freight templates' },
  { to: '/merchant/money', label: 'Money' },
  { to: '/merchant/webhooks', label: 'Webhooks' },
];

/** The shop console (`/merchant/*`): its own chunk, loaded only when an operator opens it. */
export default function MerchantConsole() {
  usePageTitle('Shop console');
  return (
    <ConsoleShell title="Shop console" role="SHOP_OPERATOR" links={LINKS}>
      <Routes>
        <Route index element={<Dashboard />} />
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
        <Route path="webhooks" element={<Webhooks />} />
        <Route path="*" element={<p role="alert">No such screen in the shop console.</p>} />
      </Routes>
    </ConsoleShell>
  );
}
