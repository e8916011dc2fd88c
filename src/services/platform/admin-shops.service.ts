import { BASE_CURRENCY } from '../../currency.js';
import { typedSql } from '../../db/typed-sql.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { RefundStatus } from '../../entities/refund.entity.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { parseInput, z } from '../../shared/validate.js';
import { idPage, NameSort, nameSortOrder, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { containsPattern, opt } from '../../shared/values.js';
import type { AdminShopView } from './admin-shop-view.js';

export { AdminShopView } from './admin-shop-view.js';

/**
 * Shops for the platform (issue 41, item 4): each with its state (shops/shop-lifecycle.ts), its sales,
 * its own balances and the commission the platform holds on it, all read from the rows that own them:
 * the orders, the completed refunds and the ledger's balance rows.
 */

export const AdminShopListInput = z.object({
  ...pageFields,
  /** Part of the shop's name or slug. */
  q: z.string().trim().max(200).optional(),
  status: z.enum(ShopStatus).optional(),
  /** The table's order: newest first when left out, or by name (shop_name_id_idx). */
  sort: z.enum(NameSort).optional(),
});

const SHOP_BALANCES = [BalanceKind.ShopPending, BalanceKind.ShopAvailable, BalanceKind.ShopInTransit, BalanceKind.ShopDebt, BalanceKind.PlatformCommission];

async function adminShopViews(ctx: ServiceContext, ids: number[]): Promise<AdminShopView[]> {
  if (ids.length === 0) return [];
  const db = typedSql(ctx.em);
  const [shops, balances] = await Promise.all([
    db
      .selectFrom('Shop as s')
      .select((eb) => [
        's.id',
        's.slug',
        's.name',
        's.status',
        's.statusReason',
        's.statusChangedAt',
        eb.selectFrom('Order as o').select((o) => o.fn.countAll<number>().as('n')).whereRef('o.shop', '=', 's.id').where('o.paidAt', 'is not', null).as('paidOrders'),
        eb.selectFrom('Order as o').select((o) => o.fn.sum<number>('o.total').as('n')).whereRef('o.shop', '=', 's.id').where('o.paidAt', 'is not', null).as('sales'),
        eb.selectFrom('Refund as r').select((r) => r.fn.sum<number>('r.amount').as('n')).whereRef('r.shop', '=', 's.id').where('r.status', '=', RefundStatus.Completed).as('refunded'),
      ])
      .where('s.id', 'in', ids)
      .execute(),
    db.selectFrom('Balance').select(['shop', 'kind', 'amount']).where('shop', 'in', ids).where('kind', 'in', SHOP_BALANCES).execute(),
  ]);
  const of = (shopId: number, kind: BalanceKind) => Number(balances.find((b) => b.shop === shopId && b.kind === kind)?.amount ?? 0);
  const byId = new Map<number, AdminShopView>(
    shops.map((s) => [
      s.id,
      {
        id: s.id,
        slug: s.slug,
        name: s.name,
        status: s.status,
        statusReason: opt(s.statusReason),
        statusChangedAt: opt(s.statusChangedAt),
        currency: BASE_CURRENCY.code,
        paidOrders: Number(s.paidOrders ?? 0),
        sales: Number(s.sales ?? 0),
        refunded: Number(s.refunded ?? 0),
        balance: {
          pending: of(s.id, BalanceKind.ShopPending),
          available: of(s.id, BalanceKind.ShopAvailable),
          inTransit: of(s.id, BalanceKind.ShopInTransit),
          debt: of(s.id, BalanceKind.ShopDebt),
        },
        commission: of(s.id, BalanceKind.PlatformCommission),
      },
    ]),
  );
  return ids.map((i) => byId.get(i)).filter((s): s is AdminShopView => s !== undefined);
}

/** Every shop, newest first unless `sort` says otherwise, whatever its state, by part of its name or slug and by state (platform admin). */
export async function listAdminShops(ctx: ServiceContext, input: unknown): Promise<Page<AdminShopView>> {
  requirePlatformPermission(ctx, Permission.PlatformShopsRead);
  const { q, status, sort, ...paging } = parseInput(AdminShopListInput, input ?? {});
  let rows = typedSql(ctx.em).selectFrom('Shop');
  if (q) rows = rows.where((eb) => eb.or([eb('name', 'ilike', containsPattern(q)), eb('slug', 'ilike', containsPattern(q))]));
  if (status) rows = rows.where('status', '=', status);
  const { by, direction } = nameSortOrder(sort, 'Shop.name');
  const { ids, total } = await idPage(rows, paging, direction, by);
  return pageOf(await adminShopViews(ctx, ids), paging, total);
}
