import { sql, type ExpressionBuilder } from 'kysely';
import { conflict, notFound, refused } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { Shop } from '../../entities/shop.entity.js';
import { ShopProfile } from '../../entities/shop-profile.entity.js';
import { ShopApplication, ShopApplicationStatus } from '../../entities/shop-application.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requirePlatformPermission, requireUser } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { emailAddress, httpUrl, id, NOT_BLANK, parseInput, z } from '../../shared/validate.js';
import { idPage, pageFields, pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import { containsPattern } from '../../shared/values.js';
import { moveApplication, refuseUnlessMovable } from './application-lifecycle.js';
import { applicationViews, type ShopApplicationView } from './application-view.js';
import { addFirstOwner } from './shop-members.service.js';

/**
 * Shop onboarding (issue 41, item 1): a customer applies to open a shop; a platform admin approves
 * (the shop, its profile and its operator appear in one transaction) or rejects with a reason the
 * applicant reads; the applicant may withdraw while the application is still submitted. The status
 * moves only through application-lifecycle.ts.
 */

const text = (max: number) => z.string().trim().regex(NOT_BLANK, 'must not be blank').max(max);
/** Lowercase words of letters and digits joined by single hyphens: safe in a URL path as it is. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const ShopSlug = z.string().trim().toLowerCase().min(3).max(80).regex(SLUG, 'must be lowercase letters and digits, words joined by single hyphens');
const PHONE = /^\+?[0-9][0-9 ()-]{4,38}[0-9]$/;

export const ApplyInput = z.strictObject({
  legalName: text(200),
  shopName: text(120),
  slug: ShopSlug,
  contactName: text(120),
  contactPhone: z.string().trim().max(40).regex(PHONE, 'must be a phone number: digits, spaces, hyphens or brackets, optionally after a +'),
  contactEmail: emailAddress,
  categoryIds: z.array(id).min(1).max(20),
  logoUrl: httpUrl().nullish(),
  description: z.string().trim().max(2000).nullish(),
  termsAccepted: z.literal(true, { error: 'the platform terms must be accepted (true)' }),
});
const ApplicationRef = z.strictObject({ applicationId: id });
export const RejectApplicationInput = ApplicationRef.extend({ reason: text(500) });
export const ApplicationListInput = z.object({ ...pageFields, status: z.enum(ShopApplicationStatus).optional() });
export const AdminApplicationListInput = ApplicationListInput.extend({
  /** Part of the shop's or the legal name, the address, the contact's or the applicant's name or email. */
  q: z.string().trim().max(200).optional(),
});

const now = sql<Date>`now()`;

/**
 * Serializes everything that claims a slug (applying, approving) on a transaction-scoped advisory
 * lock of the slug: a check of "taken?" made under it stays true until commit.
 */
async function lockSlug(tx: ServiceContext, slug: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`shop-slug:${slug}`}))`.execute(typedSql(tx.em));
}

async function refuseTakenSlug(tx: ServiceContext, slug: string, exceptApplicationId?: number): Promise<void> {
  const db = typedSql(tx.em);
  const shop = await db.selectFrom('Shop').select('id').where('slug', '=', slug).executeTakeFirst();
  if (shop) throw conflict('SHOP_SLUG_TAKEN', `A shop already has the slug ${slug}`, { slug, shop_id: shop.id });
  let open = db.selectFrom('ShopApplication').select('id').where('slug', '=', slug).where('status', '=', ShopApplicationStatus.Submitted);
  if (exceptApplicationId !== undefined) open = open.where('id', '<>', exceptApplicationId);
  if (await open.executeTakeFirst()) throw conflict('SHOP_SLUG_TAKEN', `An open shop application already asks for the slug ${slug}`, { slug });
}

const view = async (tx: ServiceContext, applicationId: number) => (await applicationViews(tx.em, [applicationId]))[0];

export const applyForShopRefusals = refusals('SHOP_APPLICATION_OPEN', 'SHOP_SLUG_TAKEN', 'CATEGORY_UNKNOWN');

/** A customer applies to open a shop: at most one open application each, and a slug nobody holds. */
export async function applyForShop(ctx: ServiceContext, input: unknown): Promise<ShopApplicationView> {
  const customer = requireCustomer(ctx);
  const data = parseInput(ApplyInput, input);
  const categoryIds = [...new Set(data.categoryIds)];
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const known = new Set((await db.selectFrom('Category').select('id').where('id', 'in', categoryIds).execute()).map((c) => c.id));
    const unknown = categoryIds.find((c) => !known.has(c));
    if (unknown !== undefined) throw refused('CATEGORY_UNKNOWN', `There is no category ${unknown}`, { category_id: unknown });
    await lockSlug(tx, data.slug);
    const open = await db
      .selectFrom('ShopApplication')
      .select('id')
      .where('applicant', '=', customer.userId)
      .where('status', '=', ShopApplicationStatus.Submitted)
      .executeTakeFirst();
    if (open) throw conflict('SHOP_APPLICATION_OPEN', 'You already have an open shop application; withdraw it or wait for its decision', { application_id: open.id });
    await refuseTakenSlug(tx, data.slug);
    const application = tx.em.create(ShopApplication, {
      applicant: customer.userId,
      legalName: data.legalName,
      shopName: data.shopName,
      slug: data.slug,
      contactName: data.contactName,
      contactPhone: data.contactPhone,
      contactEmail: data.contactEmail,
      categoryIds,
      logoUrl: data.logoUrl ?? null,
      description: data.description || null,
      termsAcceptedAt: new Date(),
    });
    await tx.em.flush();
    return view(tx, application.id);
  });
}

/** The application row, locked until the transaction ends (a decision and a withdrawal queue on it). */
async function lockApplication(tx: ServiceContext, applicationId: number, applicantId?: number) {
  let row = typedSql(tx.em)
    .selectFrom('ShopApplication')
    .select(['id', 'applicant', 'status', 'slug', 'shopName', 'logoUrl', 'description', 'contactPhone'])
    .where('id', '=', applicationId);
  if (applicantId !== undefined) row = row.where('applicant', '=', applicantId);
  const found = await row.forUpdate().executeTakeFirst();
  if (!found) throw notFound('Shop application', { application_id: applicationId });
  return found;
}

export const approveShopApplicationRefusals = refusals('NOT_FOUND', 'SHOP_APPLICATION_WRONG_STATE', 'SHOP_SLUG_TAKEN', 'SHOP_APPLICANT_NOT_CUSTOMER');

/**
 * A platform admin approves: in one transaction the shop is created (with a profile when the
 * application gave a logo, which a profile requires), the applicant becomes its first owner (a
 * membership, written by shop-members.service.ts), and the application records the shop. The locked row makes a second approval, a rejection or a withdrawal
 * wait and then find it approved: exactly one shop per application.
 */
export async function approveShopApplication(ctx: ServiceContext, input: unknown): Promise<ShopApplicationView> {
  const admin = requirePlatformPermission(ctx, Permission.PlatformShopsManage);
  const { applicationId } = parseInput(ApplicationRef, input);
  return inTransaction(ctx, async (tx) => {
    const application = await lockApplication(tx, applicationId);
    // Before the slug check: an approved application's slug is its own shop's.
    refuseUnlessMovable(application, 'approve');
    await lockSlug(tx, application.slug);
    await refuseTakenSlug(tx, application.slug, application.id);
    const shop = tx.em.create(Shop, { slug: application.slug, name: application.shopName });
    if (application.logoUrl) {
      tx.em.create(ShopProfile, { shop, logoUrl: application.logoUrl, description: application.description, contactPhone: application.contactPhone });
    }
    await tx.em.flush();
    if (!(await addFirstOwner(tx, shop.id, application.applicant))) {
      throw conflict('SHOP_APPLICANT_NOT_CUSTOMER', 'The applicant has become platform staff meanwhile, so cannot own a shop', {
        application_id: application.id,
      });
    }
    await moveApplication(tx, application.id, 'approve', { shop: shop.id, decidedBy: admin.userId, decidedAt: now });
    return view(tx, application.id);
  });
}

export const rejectShopApplicationRefusals = refusals('NOT_FOUND', 'SHOP_APPLICATION_WRONG_STATE');

/** A platform admin rejects, with the reason the applicant reads. */
export async function rejectShopApplication(ctx: ServiceContext, input: unknown): Promise<ShopApplicationView> {
  const admin = requirePlatformPermission(ctx, Permission.PlatformShopsManage);
  const { applicationId, reason } = parseInput(RejectApplicationInput, input);
  return inTransaction(ctx, async (tx) => {
    await lockApplication(tx, applicationId);
    await moveApplication(tx, applicationId, 'reject', { rejectReason: reason, decidedBy: admin.userId, decidedAt: now });
    return view(tx, applicationId);
  });
}

export const withdrawShopApplicationRefusals = refusals('NOT_FOUND', 'SHOP_APPLICATION_WRONG_STATE');

/** The applicant withdraws their application while it is still submitted. Another user's is 404. */
export async function withdrawShopApplication(ctx: ServiceContext, input: unknown): Promise<ShopApplicationView> {
  const user = requireUser(ctx);
  const { applicationId } = parseInput(ApplicationRef, input);
  return inTransaction(ctx, async (tx) => {
    await lockApplication(tx, applicationId, user.userId);
    await moveApplication(tx, applicationId, 'withdraw', { withdrawnAt: now });
    return view(tx, applicationId);
  });
}

async function listApplications(ctx: ServiceContext, applicantId: number | null, input: { status?: ShopApplicationStatus; q?: string } & PageRequest): Promise<Page<ShopApplicationView>> {
  const { status, q, ...paging } = input;
  let rows = typedSql(ctx.em).selectFrom('ShopApplication');
  if (applicantId !== null) rows = rows.where('applicant', '=', applicantId);
  if (status) rows = rows.where('status', '=', status);
  if (q) rows = rows.where(applicationMatches(q));
  const { ids, total } = await idPage(rows, paging, 'desc');
  return pageOf(await applicationViews(ctx.em, ids), paging, total);
}

/**
 * An application as an admin looks for it: by the shop's or the legal name, the address asked for,
 * the contact's name or email, or the applicant's. The applicant is matched in a subquery so the
 * page of ids stays one query over ShopApplication; the desk reads few pages, so the match scans.
 */
function applicationMatches(q: string) {
  const pattern = containsPattern(q);
  return (eb: ExpressionBuilder<Database, 'ShopApplication'>) =>
    eb.or([
      eb('ShopApplication.shopName', 'ilike', pattern),
      eb('ShopApplication.legalName', 'ilike', pattern),
      eb('ShopApplication.slug', 'ilike', pattern),
      eb('ShopApplication.contactName', 'ilike', pattern),
      eb('ShopApplication.contactEmail', 'ilike', pattern),
      eb.exists(
        eb
          .selectFrom('User as u')
          .select('u.id')
          .whereRef('u.id', '=', 'ShopApplication.applicant')
          .where((user) => user.or([user('u.displayName', 'ilike', pattern), user('u.email', 'ilike', pattern)])),
      ),
    ]);
}

/**
 * The caller's own applications, newest first, rejection reasons included. Any signed-in user: an
 * approved applicant is an operator by now and still reads how they got there.
 */
export function listMyShopApplications(ctx: ServiceContext, input: unknown): Promise<Page<ShopApplicationView>> {
  return listApplications(ctx, requireUser(ctx).userId, parseInput(ApplicationListInput, input ?? {}));
}

/** Every application, newest first, optionally of one status and matching the admin's words (platform admin). */
export function listShopApplications(ctx: ServiceContext, input: unknown): Promise<Page<ShopApplicationView>> {
  requirePlatformPermission(ctx, Permission.PlatformShopsManage);
  return listApplications(ctx, null, parseInput(AdminApplicationListInput, input ?? {}));
}

async function getApplication(ctx: ServiceContext, applicantId: number | null, input: unknown): Promise<ShopApplicationView> {
  const { applicationId } = parseInput(ApplicationRef, input);
  const [found] = await applicationViews(ctx.em, [applicationId]);
  if (!found || (applicantId !== null && found.applicantId !== applicantId)) throw notFound('Shop application', { application_id: applicationId });
  return found;
}

export const getMyShopApplicationRefusals = refusals('NOT_FOUND');

/** One of the caller's applications; anyone else's is 404, as if it did not exist. */
export const getMyShopApplication = (ctx: ServiceContext, input: unknown) => getApplication(ctx, requireUser(ctx).userId, input);

export const getShopApplicationRefusals = refusals('NOT_FOUND');

export const getShopApplication = (ctx: ServiceContext, input: unknown) => {
  requirePlatformPermission(ctx, Permission.PlatformShopsManage);
  return getApplication(ctx, null, input);
};
