import { PointsProductView, RedemptionView } from '../../services/points/points-mall.service.js';
import { itemsOf, named, page } from './common.js';
import { ShippingCompanyView } from '../../services/shipping/shipping-company.service.js';
import { FreightAssignmentView, FreightTemplateView } from '../../services/shipping/freight-views.js';

export const PointsProduct = named('PointsProduct', PointsProductView);
export const PointsProductPage = named('PointsProductPage', page(PointsProduct));

export const Redemption = named('Redemption', RedemptionView);
export const RedemptionPage = named('RedemptionPage', page(Redemption));

export const ShippingCompany = named('ShippingCompany', ShippingCompanyView);
export const ShippingCompanyList = named('ShippingCompanyList', itemsOf(ShippingCompany));

export const FreightTemplate = named('FreightTemplate', FreightTemplateView);
export const FreightTemplatePage = named('FreightTemplatePage', page(FreightTemplate));
export const FreightAssignment = named('FreightAssignment', FreightAssignmentView);
