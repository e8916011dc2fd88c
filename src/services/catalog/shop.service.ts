import { notFound } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { idParam, parseInput, z } from '../../shared/validate.js';
import { ProfileInput } from './shop-profile.inputs.js';
import { pageFields, pageOf, pageWindow, type Page } from '../../shared/pagination.js';
import { Shop, ShopStatus } from '../../entities/shop.entity.js';
import { ShopProfile } from '../../entities/shop-profile.entity.js';
import { withFavoritedShops } from '../accounts/favorites.service.js';
import { profileViewOf, type ShopProfileView, type ShopView } from './catalog-views.js';
import { refusals } from '../../error-codes.js';
import { auditedWrite } from '../../shared/audit.js';

export const ListShopsInput = z.strictObject({ ...pageFields });
export const Slug = z.string().min(1).max(80);
export { ProfileInput };

/** A shop with its profile loaded (the key is there even when the shop has none). */
function toShopView(shop: Shop): ShopView {
  return { id: shop.id, slug: shop.slug, name: shop.name, profile: shop.profile ? profileViewOf(shop.profile) : undefined };
}

/**
 * Every active shop, by name, with its profile when it has one (no profile: the `profile` key is
 * absent). A suspended or closed shop is on no storefront page: neither here nor by its slug.
 */
export async function listShops(ctx: ServiceContext, input: unknown = {}): Promise<Page<ShopView>> {
  const page = parseInput(ListShopsInput, input);
  const [shops, total] = await ctx.em.findAndCount(Shop, { status: ShopStatus.Active }, { populate: ['profile'], orderBy: { name: 'asc', id: 'asc' }, ...pageWindow(page) });
  return pageOf(await withFavoritedShops(ctx, shops.map(toShopView)), page, total);
}

export const getShopRefusals = refusals('NOT_FOUND');

export async function getShop(ctx: ServiceContext, slug: unknown): Promise<ShopView> {
  const wanted = parseInput(Slug, slug);
  const shop = await ctx.em.findOne(Shop, { slug: wanted, status: ShopStatus.Active }, { populate: ['profile'] });
  if (!shop) throw notFound('Shop', { slug: wanted });
  return (await withFavoritedShops(ctx, [toShopView(shop)]))[0];
}

export const putShopProfileRefusals = refusals('NOT_FOUND');

/**
 * Creates or replaces a shop's profile (fields left out become empty); returns the stored profile.
 * One upsert statement, so two first writes of one shop's profile cannot collide.
 */
export async function putShopProfile(ctx: ServiceContext, shopId: unknown, input: unknown): Promise<ShopProfileView> {
  requirePlatformPermission(ctx, Permission.PlatformContentManage);
  const id = parseInput(idParam, shopId);
  const p = parseInput(ProfileInput, input);
  return inTransaction(ctx, async (tx) => {
    const { em } = tx;
    const shop = await em.findOne(Shop, id);
    if (!shop) throw notFound('Shop', { id });
    const profile = await auditedWrite(tx, { type: 'ShopProfile', id }, () => em.upsert(ShopProfile, {
      shop,
      logoUrl: p.logoUrl,
      description: p.description || null,
      bannerUrl: p.bannerUrl ?? null,
      contactPhone: p.contactPhone || null,
      address: p.address || null,
      updatedAt: new Date(),
    }));
    return profileViewOf(profile);
  });
}
