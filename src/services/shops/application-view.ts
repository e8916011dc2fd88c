import type { EntityManager } from '@mikro-orm/postgresql';
import { typedSql } from '../../db/typed-sql.js';
import type { ShopApplicationStatus } from '../../entities/shop-application.entity.js';

/** A shop application as both doors answer it; optional fields are absent, not null, until they apply. */
export interface ShopApplicationView {
  id: number;
  applicantId: number;
  status: ShopApplicationStatus;
  legalName: string;
  shopName: string;
  slug: string;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  categoryIds: number[];
  logoUrl?: string;
  description?: string;
  termsAcceptedAt: Date;
  rejectReason?: string;
  shopId?: number;
  createdAt: Date;
  decidedAt?: Date;
  withdrawnAt?: Date;
}

/** The views of these applications, in the order of the ids (one statement). */
export async function applicationViews(em: EntityManager, ids: number[]): Promise<ShopApplicationView[]> {
  if (ids.length === 0) return [];
  const rows = await typedSql(em)
    .selectFrom('ShopApplication')
    .select([
      'id', 'applicant', 'status', 'legalName', 'shopName', 'slug', 'contactName', 'contactPhone', 'contactEmail', 'categoryIds',
      'logoUrl', 'description', 'termsAcceptedAt', 'rejectReason', 'shop', 'createdAt', 'decidedAt', 'withdrawnAt',
    ])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [{
      id: r.id,
      applicantId: r.applicant,
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
