import { notFound } from '../errors.js';
import type { ServiceContext } from '../shared/context.js';
import { requireAdmin } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { parseInput, idParam, z } from '../shared/validate.js';
import { pageFields, pageOffset, type Page } from '../shared/pagination.js';
import { withFavoritedShops } from '../accounts/favorites.service.js';
import { PROFILE_COLUMNS, toProfileView, type ShopProfileView, type ShopView } from './catalog-views.js';

const ListShopsInput = z.strictObject({ ...pageFields });
const Slug = z.string().min(1).max(80);
const ProfileInput = z.strictObject({
  logoUrl: z.httpUrl().max(500),
  description: z.string().trim().max(2000).nullish(),
  bannerUrl: z.httpUrl().max(500).nullish(),
  contactPhone: z.string().trim().max(40).nullish(),
  address: z.string().trim().max(300).nullish(),
});

const SHOP_SELECT = `select s.id, s.slug, s.name, ${PROFILE_COLUMNS} from shop s left join shop_profile pr on pr.shop_id = s.id`;

function toShopView(row: any): ShopView {
  return { id: row.id, slug: row.slug, name: row.name, profile: toProfileView(row, row.id) };
}

/** Every shop, by name, with its profile when it has one (no profile: the `profile` key is absent). */
export async function listShops(ctx: ServiceContext, input: unknown = {}): Promise<Page<ShopView>> {
  const page = parseInput(ListShopsInput, input);
  const [rows, [count]] = await Promise.all([
    ctx.em.execute(`${SHOP_SELECT} order by s.name, s.id limit ? offset ?`, [page.pageSize, pageOffset(page)]),
    ctx.em.execute<{ total: number }[]>('select count(*)::int as total from shop'),
  ]);
  return { items: await withFavoritedShops(ctx, rows.map(toShopView)), page: page.page, pageSize: page.pageSize, total: count.total };
}

export async function getShop(ctx: ServiceContext, slug: unknown): Promise<ShopView> {
  const [row] = await ctx.em.execute(`${SHOP_SELECT} where s.slug = ?`, [parseInput(Slug, slug)]);
  if (!row) throw notFound('Shop', { slug });
  return (await withFavoritedShops(ctx, [toShopView(row)]))[0];
}

/** Creates or replaces a shop's profile (fields left out become empty); returns the stored profile. */
export async function putShopProfile(ctx: ServiceContext, shopId: unknown, input: unknown): Promise<ShopProfileView> {
  requireAdmin(ctx);
  const id = parseInput(idParam, shopId);
  const p = parseInput(ProfileInput, input);
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.em.execute(
      `insert into shop_profile as pr (shop_id, logo_url, description, banner_url, contact_phone, address, updated_at)
       select id, ?, ?, ?, ?, ?, now() from shop where id = ?
       on conflict (shop_id) do update set logo_url = excluded.logo_url, description = excluded.description,
         banner_url = excluded.banner_url, contact_phone = excluded.contact_phone, address = excluded.address,
         updated_at = excluded.updated_at
       returning ${PROFILE_COLUMNS}`,
      [p.logoUrl, p.description || null, p.bannerUrl ?? null, p.contactPhone || null, p.address || null, id],
    );
    if (!row) throw notFound('Shop', { id });
    return toProfileView(row, id)!;
  });
}
