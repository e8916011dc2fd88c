import { changeListenerOf } from '../../src/db/change-listener.js';
import { HOME_CONTENT_CHANNEL } from '../../src/services/catalog/home-content.service.js';
import { randomBytes } from 'node:crypto';
import { hashToken } from '../../src/services/accounts/auth.service.js';
import { hashPassword } from '../../src/services/accounts/password.js';
import { createZeroBalances, credit } from '../../src/services/accounts/ledger.service.js';
import { BalanceKind } from '../../src/entities/balance.entity.js';
import { PlatformRole, Role } from '../../src/entities/user.entity.js';
import { ShopRole } from '../../src/entities/shop-membership.entity.js';
import type { TestApp } from './harness.js';

/**
 * Small builders so a test states only what matters to it. They write straight to the database
 * (setup is not what is under test) and return ids and ready bearer tokens.
 */
export const PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | undefined;
let seq = 0;
const unique = (label: string) => `${label}-${process.pid}-${++seq}-${randomBytes(3).toString('hex')}`;

export interface TestUser {
  id: number;
  email: string;
  token: string;
  shopId: number | null;
}

async function insertToken(t: TestApp, userId: number, expiresAt = new Date(Date.now() + 3600_000)): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await t.sql('insert into auth_token (token_hash, user_id, expires_at, created_at) values (?, ?, ?, now())', [hashToken(token), userId, expiresAt]);
  return token;
}

async function newUser(t: TestApp, role: Role, platformRole: PlatformRole | null = null): Promise<TestUser> {
  passwordHash ??= hashPassword(PASSWORD);
  const email = `${unique(platformRole ?? role)}@example.test`;
  const [row] = await t.sql<{ id: number }>(
    `insert into app_user (email, password_hash, display_name, role, platform_role, created_at) values (?, ?, ?, ?, ?, now()) returning id`,
    [email, await passwordHash, 'Test User', role, platformRole],
  );
  return { id: row.id, email, token: await insertToken(t, row.id), shopId: null };
}

/** Adds a membership of `shopId` with `role` to a user (an account that is not one becomes a shop operator's). */
export async function addMembership(t: TestApp, userId: number, shopId: number, role: ShopRole): Promise<void> {
  await t.sql(`update app_user set role = 'shop_operator' where id = ? and role = 'customer'`, [userId]);
  await t.sql(`insert into shop_membership (user_id, shop_id, role, created_at) values (?, ?, ?, now())`, [userId, shopId, role]);
}

/** A member of the shop with a shop role (an operator: the owner). */
export async function newMember(t: TestApp, shopId: number, role: ShopRole): Promise<TestUser> {
  const user = await newUser(t, Role.ShopOperator);
  await addMembership(t, user.id, shopId, role);
  return { ...user, shopId };
}

/** Platform staff with a platform role (an admin: every platform permission). */
export const newStaff = (t: TestApp, platformRole: PlatformRole) => newUser(t, Role.PlatformAdmin, platformRole);

export async function newCustomer(t: TestApp, funds = { available: 0, points: 0 }): Promise<TestUser> {
  const user = await newUser(t, Role.Customer);
  const em = t.em();
  await em.transactional(async (tx) => {
    await createZeroBalances(tx, [user.id]);
    if (funds.available > 0) await credit(tx, { userId: user.id, kind: BalanceKind.Available, amount: funds.available, reason: 'seed' });
    if (funds.points > 0) await credit(tx, { userId: user.id, kind: BalanceKind.Points, amount: funds.points, reason: 'seed' });
  });
  return user;
}

export const newAdmin = (t: TestApp) => newStaff(t, PlatformRole.Admin);
/** The shop's owner: what a `shop_operator` was before shops had staff with roles. */
export const newOperator = (t: TestApp, shopId: number) => newMember(t, shopId, ShopRole.Owner);
export const expiredTokenFor = (t: TestApp, userId: number) => insertToken(t, userId, new Date(Date.now() - 1000));

export async function newShop(t: TestApp, options: { withProfile?: boolean; name?: string } = {}): Promise<{ id: number; slug: string; name: string }> {
  const slug = unique('shop');
  const name = options.name ?? `Shop ${slug}`;
  const [row] = await t.sql<{ id: number }>(`insert into shop (slug, name, created_at) values (?, ?, now()) returning id`, [slug, name]);
  if (options.withProfile) {
    await t.sql(`insert into shop_profile (shop_id, logo_url, description, updated_at) values (?, ?, ?, now())`, [row.id, `https://img.test/${slug}.png`, 'A test shop']);
  }
  return { id: row.id, slug, name };
}

/** A category; pass a parent to build a tree. */
export async function newCategory(t: TestApp, parent?: { id: number; path: string; depth: number }): Promise<{ id: number; path: string; depth: number }> {
  const depth = parent ? parent.depth + 1 : 0;
  const [row] = await t.sql<{ id: number }>(
    `insert into category (parent_id, name, slug, depth, path, position) values (?, ?, ?, ?, '', 0) returning id`,
    [parent?.id ?? null, unique('Category'), unique('category'), depth],
  );
  const path = `${parent ? parent.path : '/'}${row.id}/`;
  await t.sql(`update category set path = ? where id = ?`, [path, row.id]);
  return { id: row.id, path, depth };
}

export async function newBrand(t: TestApp, position = 0): Promise<{ id: number }> {
  const [row] = await t.sql<{ id: number }>(`insert into brand (name, position) values (?, ?) returning id`, [unique('Brand'), position]);
  return row;
}

export interface ProductSpec {
  shopId: number;
  categoryId: number;
  brandId?: number | null;
  status?: 'draft' | 'published' | 'unpublished';
  skus?: { price: number; stock: number; name?: string }[];
  name?: string;
}

export async function newProduct(t: TestApp, spec: ProductSpec): Promise<{ id: number; skuIds: number[] }> {
  const skus = spec.skus ?? [{ price: 1000, stock: 10 }];
  const [row] = await t.sql<{ id: number }>(
    `insert into product (shop_id, category_id, brand_id, name, status, price_from, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, now(), now()) returning id`,
    [spec.shopId, spec.categoryId, spec.brandId ?? null, spec.name ?? unique('Product'), spec.status ?? 'published', Math.min(...skus.map((s) => s.price))],
  );
  const skuIds: number[] = [];
  for (const [i, sku] of skus.entries()) {
    const [s] = await t.sql<{ id: number }>(`insert into sku (product_id, name, price, stock) values (?, ?, ?, ?) returning id`, [row.id, sku.name ?? `Variant ${i + 1}`, sku.price, sku.stock]);
    // The first stock as the shop's own upsert records it, so the inventory audit starts from it.
    if (sku.stock !== 0) await t.sql(`insert into stock_movement (sku_id, delta, kind, created_at) values (?, ?, 'adjustment', now())`, [s.id, sku.stock]);
    skuIds.push(s.id);
  }
  return { id: row.id, skuIds };
}

/** A three-level branch: a top-level category, one child and one grandchild under it. */
export async function newCategoryBranch(t: TestApp) {
  const top = await newCategory(t);
  const child = await newCategory(t, top);
  const grandchild = await newCategory(t, child);
  return { top, child, grandchild };
}

export interface ContentSpec {
  title?: string;
  destination?: string;
  active?: boolean;
}

/** Writes one kind's home content list directly (positions in the given order). */
export async function setContent(t: TestApp, kind: string, items: ContentSpec[]): Promise<void> {
  await t.sql('delete from home_content_item where kind = ?', [kind]);
  for (const [position, item] of items.entries()) {
    await t.sql(
      'insert into home_content_item (kind, position, active, title, destination) values (?, ?, ?, ?, ?)',
      [kind, position, item.active ?? true, item.title ?? `${kind} ${position}`, item.destination ?? '/'],
    );
  }
  homeContentWritten(t);
}

/**
 * The home content was written through the app's own ORM (`t.sql`): as after the admin route's
 * write, this process reads it again at once (the trigger's notification may still be on its way).
 */
export function homeContentWritten(t: TestApp): void {
  changeListenerOf(t.orm.em, HOME_CONTENT_CHANNEL)?.changed();
}

export interface CouponTemplateSpec {
  name?: string;
  discountKind?: 'fixed' | 'percent';
  amountOff?: number | null;
  percentOff?: number | null;
  maxDiscount?: number | null;
  minOrderAmount?: number;
  validFrom?: Date | null;
  validUntil?: Date | null;
  validDays?: number | null;
  claimStock?: number;
  status?: 'active' | 'disabled';
}

/** A coupon template of a shop; by default 500 off, no threshold, valid 30 days from claim, 100 to claim. */
export async function newCouponTemplate(t: TestApp, shopId: number, spec: CouponTemplateSpec = {}): Promise<{ id: number }> {
  const kind = spec.discountKind ?? 'fixed';
  const fixedWindow = spec.validFrom !== undefined || spec.validUntil !== undefined;
  const [row] = await t.sql<{ id: number }>(
    `insert into coupon_template (shop_id, name, discount_kind, amount_off, percent_off, max_discount, min_order_amount,
                                  valid_from, valid_until, valid_days, claim_stock, status, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now()) returning id`,
    [
      shopId, spec.name ?? unique('Coupon'), kind,
      kind === 'fixed' ? (spec.amountOff ?? 500) : null,
      kind === 'percent' ? (spec.percentOff ?? 10) : null,
      spec.maxDiscount ?? null, spec.minOrderAmount ?? 0,
      spec.validFrom ?? null, spec.validUntil ?? null, fixedWindow ? null : (spec.validDays ?? 30),
      spec.claimStock ?? 100, spec.status ?? 'active',
    ],
  );
  return row;
}

export interface GroupBuySpec {
  shopId: number;
  productId: number;
  skuId: number;
  groupPrice?: number;
  capacity?: number;
  lifetimeMinutes?: number;
  /** Window relative to now, in minutes (default: started an hour ago, ends in a day). */
  startsInMinutes?: number;
  endsInMinutes?: number;
}

/** A group-buying activity on one SKU of the shop. */
export async function newGroupBuy(t: TestApp, spec: GroupBuySpec): Promise<{ id: number }> {
  const [row] = await t.sql<{ id: number }>(
    `insert into group_buy_activity (shop_id, product_id, sku_id, group_price, capacity, lifetime_minutes, starts_at, ends_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, now() + make_interval(mins => ?), now() + make_interval(mins => ?), now(), now()) returning id`,
    [spec.shopId, spec.productId, spec.skuId, spec.groupPrice ?? 600, spec.capacity ?? 3, spec.lifetimeMinutes ?? 60, spec.startsInMinutes ?? -60, spec.endsInMinutes ?? 1440],
  );
  return row;
}

export interface FreightSpec {
  firstUnitFee: number;
  additionalUnitFee: number;
  freeThreshold?: number | null;
  regions?: { region: string; firstUnitFee: number; additionalUnitFee: number; freeThreshold?: number | null }[];
}

/** A freight template of a shop, optionally assigned to products. */
export async function newFreightTemplate(t: TestApp, shopId: number, spec: FreightSpec, productIds: number[] = []): Promise<{ id: number }> {
  const [row] = await t.sql<{ id: number }>(
    `insert into freight_template (shop_id, name, first_unit_fee, additional_unit_fee, free_threshold, created_at, updated_at)
     values (?, ?, ?, ?, ?, now(), now()) returning id`,
    [shopId, unique('Freight'), spec.firstUnitFee, spec.additionalUnitFee, spec.freeThreshold ?? null],
  );
  for (const r of spec.regions ?? []) {
    await t.sql('insert into freight_template_region (template_id, region, first_unit_fee, additional_unit_fee, free_threshold) values (?, ?, ?, ?, ?)', [
      row.id, r.region, r.firstUnitFee, r.additionalUnitFee, r.freeThreshold ?? null,
    ]);
  }
  for (const productId of productIds) await t.sql('update product set freight_template_id = ? where id = ?', [row.id, productId]);
  return row;
}

export interface PointsProductSpec {
  pointsPrice?: number;
  stock?: number;
  published?: boolean;
  name?: string;
}

export async function newPointsProduct(t: TestApp, spec: PointsProductSpec = {}): Promise<{ id: number; name: string; pointsPrice: number }> {
  const name = spec.name ?? unique('Points item');
  const pointsPrice = spec.pointsPrice ?? 100;
  const [row] = await t.sql<{ id: number }>(
    `insert into points_product (name, points_price, stock, published, created_at, updated_at) values (?, ?, ?, ?, now(), now()) returning id`,
    [name, pointsPrice, spec.stock ?? 10, spec.published ?? true],
  );
  return { id: row.id, name, pointsPrice };
}
