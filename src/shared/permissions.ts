import { PlatformRole, Role } from '../entities/user.entity.js';
import { ShopRole } from '../entities/shop-membership.entity.js';

/**
 * What an operation needs, declared once per operation at its door (a REST operation's `permission`,
 * a GraphQL field's `@Allow`) and checked again by the use case's guard (guards.ts). Roles are sets
 * of these (the tables below); no code outside this file asks for a role by name to allow something.
 *
 * `public` needs nothing and `signed_in` any account; `customer` is what a customer account does for
 * itself. `shop.*` permissions are held through a membership of the shop the request acts for
 * (docs/api.md, "Staff and the shop a request acts for"); `platform.*` through a platform role.
 * `ops.read` and `events.read` may be held either way: the use case answers for
 * the acting shop, or for the whole mall to platform staff.
 */
export enum Permission {
  Public = 'public',
  SignedIn = 'signed_in',
  Customer = 'customer',

  ShopOrdersRead = 'shop.orders.read',
  ShopOrdersFulfil = 'shop.orders.fulfil',
  ShopInvoicesIssue = 'shop.invoices.issue',
  ShopCatalogManage = 'shop.catalog.manage',
  ShopPromotionsManage = 'shop.promotions.manage',
  ShopAfterSaleManage = 'shop.after_sale.manage',
  ShopMoneyRead = 'shop.money.read',
  ShopMembersRead = 'shop.members.read',
  ShopMembersManage = 'shop.members.manage',
  ShopWebhooksManage = 'shop.webhooks.manage',
  ShopAuditRead = 'shop.audit.read',

  OpsRead = 'ops.read',
  EventsRead = 'events.read',

  PlatformContentManage = 'platform.content.manage',
  PlatformPointsManage = 'platform.points.manage',
  PlatformRedemptionsManage = 'platform.redemptions.manage',
  PlatformReviewsModerate = 'platform.reviews.moderate',
  PlatformMoneyManage = 'platform.money.manage',
  PlatformOrdersRead = 'platform.orders.read',
  PlatformCustomersRead = 'platform.customers.read',
  PlatformCustomersManage = 'platform.customers.manage',
  PlatformDisputesRule = 'platform.disputes.rule',
  PlatformShopsRead = 'platform.shops.read',
  PlatformShopsManage = 'platform.shops.manage',
  PlatformWebhooksManage = 'platform.webhooks.manage',
  PlatformAuditRead = 'platform.audit.read',
  PlatformStaffManage = 'platform.staff.manage',
}

const P = Permission;

/**
 * Each shop role's permissions. The owner holds them all; a manager all but managing members
 * (docs/decisions.md, "Staff with roles"); finance sees money and never the catalog; catalog runs
 * products and promotions and never money; fulfilment reads and ships orders; support handles
 * after-sale (refunds, returns, disputes, review replies).
 */
export const SHOP_ROLE_PERMISSIONS: Record<ShopRole, readonly Permission[]> = {
  [ShopRole.Owner]: [
    P.ShopOrdersRead, P.ShopOrdersFulfil, P.ShopInvoicesIssue, P.ShopCatalogManage, P.ShopPromotionsManage, P.ShopAfterSaleManage,
    P.ShopMoneyRead, P.ShopMembersRead, P.ShopMembersManage, P.OpsRead, P.EventsRead, P.ShopWebhooksManage, P.ShopAuditRead,
  ],
  [ShopRole.Manager]: [
    P.ShopOrdersRead, P.ShopOrdersFulfil, P.ShopInvoicesIssue, P.ShopCatalogManage, P.ShopPromotionsManage, P.ShopAfterSaleManage,
    P.ShopMoneyRead, P.ShopMembersRead, P.OpsRead, P.EventsRead, P.ShopWebhooksManage,
  ],
  [ShopRole.Catalog]: [P.ShopCatalogManage, P.ShopPromotionsManage],
  [ShopRole.Fulfilment]: [P.ShopOrdersRead, P.ShopOrdersFulfil, P.OpsRead],
  [ShopRole.Finance]: [P.ShopMoneyRead, P.ShopOrdersRead, P.ShopInvoicesIssue],
  [ShopRole.Support]: [P.ShopOrdersRead, P.ShopAfterSaleManage],
};

/**
 * Each platform role's permissions. Admin holds every platform permission (managing the platform's
 * own staff only it); finance runs payouts,
 * commissions and reconciliation; support reads orders and customers, disables accounts, rules on
 * disputes and fulfils redemptions; content runs brands, home content, shop profiles, the points
 * mall's products and review moderation.
 */
export const PLATFORM_ROLE_PERMISSIONS: Record<PlatformRole, readonly Permission[]> = {
  [PlatformRole.Admin]: [
    P.PlatformContentManage, P.PlatformPointsManage, P.PlatformRedemptionsManage, P.PlatformReviewsModerate, P.PlatformMoneyManage,
    P.PlatformOrdersRead, P.PlatformCustomersRead, P.PlatformCustomersManage, P.PlatformDisputesRule, P.PlatformShopsRead,
    P.PlatformShopsManage, P.PlatformWebhooksManage, P.PlatformAuditRead, P.PlatformStaffManage, P.OpsRead, P.EventsRead,
  ],
  [PlatformRole.Finance]: [P.PlatformMoneyManage, P.PlatformOrdersRead, P.PlatformShopsRead, P.OpsRead],
  [PlatformRole.Support]: [
    P.PlatformOrdersRead, P.PlatformCustomersRead, P.PlatformCustomersManage, P.PlatformDisputesRule, P.PlatformRedemptionsManage, P.PlatformShopsRead,
  ],
  [PlatformRole.Content]: [P.PlatformContentManage, P.PlatformPointsManage, P.PlatformReviewsModerate],
};

/** Who is asking, as far as permissions go: the account's kind, its role in the acting shop, its platform role. */
export interface PermissionHolder {
  role: Role;
  shopRole: ShopRole | null;
  platformRole: PlatformRole | null;
}

export type Grant = 'anyone' | 'account' | 'shop' | 'platform';

/**
 * Through what `holder` holds `permission` (null: it does not). A permission both a shop role and a
 * platform role could give is answered for the shop first: a request that names a shop acts for it.
 * `holder` null is an anonymous caller.
 */
export function grantOf(holder: PermissionHolder | null, permission: Permission): Grant | null {
  if (permission === P.Public) return 'anyone';
  if (!holder) return null;
  if (permission === P.SignedIn) return 'account';
  if (permission === P.Customer) return holder.role === Role.Customer ? 'account' : null;
  if (holder.shopRole && SHOP_ROLE_PERMISSIONS[holder.shopRole].includes(permission)) return 'shop';
  if (holder.platformRole && PLATFORM_ROLE_PERMISSIONS[holder.platformRole].includes(permission)) return 'platform';
  return null;
}

/** Whether any shop role gives `permission` (so a request without a chosen shop is told to choose one). */
export const isShopPermission = (permission: Permission): boolean => Object.values(SHOP_ROLE_PERMISSIONS).some((ps) => ps.includes(permission));

export const allPermissions = (): Permission[] => Object.values(Permission);

/**
 * Every permission `holder` holds, in the declaration order of `Permission`: what a client may offer
 * the user (a console shows only the screens these open). `public` and `signed_in` are left out:
 * every account holds them.
 */
export const heldPermissions = (holder: PermissionHolder): Permission[] =>
  allPermissions().filter((p) => p !== P.Public && p !== P.SignedIn && grantOf(holder, p) !== null);
