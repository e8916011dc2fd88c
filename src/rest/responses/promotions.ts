import { GroupBuyDetailView, GroupBuyView, GroupCountsView, GroupView, MerchantGroupBuyView } from '../../services/promotions/group-buy.service.js';
import { CouponTemplateView, CouponView } from '../../services/promotions/coupon.service.js';
import { FlashSaleItemView, FlashSaleView } from '../../services/promotions/flash-sale.service.js';
import { named, page } from './common.js';

export const CouponTemplate = named('CouponTemplate', CouponTemplateView);
export const CouponTemplatePage = named('CouponTemplatePage', page(CouponTemplate));

export const Coupon = named('Coupon', CouponView);
export const CouponPage = named('CouponPage', page(Coupon));

export const FlashSaleItem = named('FlashSaleItem', FlashSaleItemView);
export const FlashSale = named('FlashSale', FlashSaleView);
export const FlashSalePage = named('FlashSalePage', page(FlashSale));

export const GroupBuy = named('GroupBuy', GroupBuyView);
export const GroupBuyPage = named('GroupBuyPage', page(GroupBuy));

// GraphQL calls a group BuyingGroup.
export const Group = named('Group', GroupView);
export const GroupBuyDetail = named('GroupBuyDetail', GroupBuyDetailView);
export const GroupCounts = named('GroupCounts', GroupCountsView);
export const MerchantGroupBuy = named('MerchantGroupBuy', MerchantGroupBuyView);
export const MerchantGroupBuyPage = named('MerchantGroupBuyPage', page(MerchantGroupBuy));
