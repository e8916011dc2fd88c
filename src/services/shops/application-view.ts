import type { EntityManager } from '@mikro-orm/postgresql';
import { typedSql } from '../../db/typed-sql.js';
import { ShopApplicationStatus } from '../../entities/shop-application.entity.js';
import { z } from '../../shared/validate.js';
import { id, timestamp } from '../../shared/view-fields.js';

/**
 * A shop application as both doors answer it (REST publishes this schema, GraphQL's type is made from
 * it); optional fields are absent, not null, until they apply.
 */
export const ShopApplicationView = z
  .strictObject({
    id,
    applicantId: id,
    applicantName: z.string().describe("The applicant account's display name (the contact below may be someone else)"),
    applicantEmail: z.string().describe("The applicant account's email, the one it signs in with"),
    status: z.enum(ShopApplicationStatus),
    legalName: z.string().describe('The registered name of the business'),
    shopName: z.string().describe('The name the storefront will show'),
    slug: z.string(),
    contactName: z.string(),
    contactPhone: z.string(),
    contactEmail: z.string(),
    categoryIds: z.array(id),
    logoUrl: z.string().optional(),
    description: z.string().optional(),
    termsAcceptedAt: timestamp,
    rejectReason: z.string().optional().describe('Set once rejected: the reason told to the applicant'),
    shopId: id.optional().describe('Set once approved: the shop approval created'),
    createdAt: timestamp,
    decidedAt: timestamp.optional(),
    withdrawnAt: timestamp.optional(),
  })
  .describe("A request to open a shop, as its applicant and the platform's admins read it");
export type ShopApplicationView = z.infer<typeof ShopApplicationView>;

/** The views of these applications, in the order of the ids (one statement). */
export async function applicationViews(em: EntityManager, ids: number[]): Promise<ShopApplicationView[]> {
  if (ids.length === 0) return [];
  const rows = await typedSql(em)
    .selectFrom('ShopApplication as a')
    .innerJoin('User as u', 'u.id', 'a.applicant')
    .select([
      'a.id', 'a.applicant', 'a.status', 'a.legalName', 'a.shopName', 'a.slug', 'a.contactName', 'a.contactPhone', 'a.contactEmail', 'a.categoryIds',
      'a.logoUrl', 'a.description', 'a.termsAcceptedAt', 'a.rejectReason', 'a.shop', 'a.createdAt', 'a.decidedAt', 'a.withdrawnAt',
      'u.displayName as applicantName', 'u.email as applicantEmail',
    ])
    .where('a.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [{
      id: r.id,
      applicantId: r.applicant,
      applicantName: r.applicantName,
      applicantEmail: r.applicantEmail,
      status: r.status,
      legalName: r.legalName,
      shopName: r.shopName,
      slug: r.slug,
      contactName: r.contactName,
      contactPhone: r.contactPhone,
      contactEmail: r.contactEmail,
      // The driver answers an int[] as numbers already; the entity's type maps text forms too.
      categoryIds: r.categoryIds.map(Number),
      logoUrl: r.logoUrl ?? undefined,
      description: r.description ?? undefined,
      termsAcceptedAt: r.termsAcceptedAt,
      rejectReason: r.rejectReason ?? undefined,
      shopId: r.shop ?? undefined,
      createdAt: r.createdAt,
      decidedAt: r.decidedAt ?? undefined,
      withdrawnAt: r.withdrawnAt ?? undefined,
    }];
  });
}
