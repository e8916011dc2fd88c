import { z } from 'zod';
import { regionCode } from '../../services/shipping/regions.js';
import { RedemptionStatus } from '../../entities/redemption.entity.js';
import { count, id, itemsOf, money, named, page, ShippingAddress, timestamp } from './common.js';
import { ShippingCompanyView } from '../../services/shipping/shipping-company.service.js';

export const PointsProduct = named(
  'PointsProduct',
  z.strictObject({
    id,
    name: z.string(),
    description: z.string().optional(),
    imageUrl: z.string().optional(),
    pointsPrice: z.number().int().positive(),
    stock: count,
    published: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export const PointsProductPage = named('PointsProductPage', page(PointsProduct));

export const Redemption = named(
  'Redemption',
  z.strictObject({
    id,
    customerId: id,
    customerName: z.string().describe("The customer's display name"),
    pointsProductId: id,
    status: z.enum(RedemptionStatus),
    productName: z.string(),
    pointsPrice: z.number().int().positive(),
    quantity: z.number().int().positive(),
    pointsTotal: z.number().int().positive(),
    shippingAddress: ShippingAddress,
    createdAt: timestamp,
    fulfilledAt: timestamp.optional(),
  }),
);
export const RedemptionPage = named('RedemptionPage', page(Redemption));

export const ShippingCompany = named('ShippingCompany', ShippingCompanyView);
export const ShippingCompanyList = named('ShippingCompanyList', itemsOf(ShippingCompany));

const freightTerms = { firstUnitFee: money, additionalUnitFee: money, freeThreshold: money.nullable() };
export const FreightTemplate = named(
  'FreightTemplate',
  z.strictObject({
    ...freightTerms,
    id,
    shopId: id,
    name: z.string(),
    regions: z.array(z.strictObject({ ...freightTerms, region: regionCode })),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export const FreightTemplatePage = named('FreightTemplatePage', page(FreightTemplate));
export const FreightAssignment = named('FreightAssignment', z.strictObject({ productId: id, freightTemplateId: id.nullable() }));
