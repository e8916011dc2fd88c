import { z } from 'zod';
import { ShopApplicationStatus } from '../../entities/shop-application.entity.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import { id, named, page, timestamp } from './common.js';

export const ShopApplication = named(
  'ShopApplication',
  z.strictObject({
    id,
    applicantId: id,
    status: z.enum(ShopApplicationStatus),
    legalName: z.string(),
    shopName: z.string(),
    slug: z.string(),
    contactName: z.string(),
    contactPhone: z.string(),
    contactEmail: z.string(),
    categoryIds: z.array(id),
    logoUrl: z.string().optional(),
    description: z.string().optional(),
    termsAcceptedAt: timestamp,
    /** Set once rejected: the reason the applicant reads. */
    rejectReason: z.string().optional(),
    /** Set once approved: the shop approval created. */
    shopId: id.optional(),
    createdAt: timestamp,
    decidedAt: timestamp.optional(),
    withdrawnAt: timestamp.optional(),
  }),
);
export const ShopApplicationPage = named('ShopApplicationPage', page(ShopApplication));

export const ShopState = named(
  'ShopState',
  z.strictObject({
    shopId: id,
    status: z.enum(ShopStatus),
    /** The reason of the last suspension. */
    reason: z.string().optional(),
    /** When the state last changed (absent: active since the shop was created). */
    changedAt: timestamp.optional(),
  }),
);
