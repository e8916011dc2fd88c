import { z } from 'zod';
import { regionCode } from '../../services/shipping/regions.js';
import { PointsProductView, RedemptionView } from '../../services/points/points-mall.service.js';
import { id, itemsOf, money, named, page, timestamp } from './common.js';
import { ShippingCompanyView } from '../../services/shipping/shipping-company.service.js';

export const PointsProduct = named('PointsProduct', PointsProductView);
export const PointsProductPage = named('PointsProductPage', page(PointsProduct));

export const Redemption = named('Redemption', RedemptionView);
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
