import { z } from 'zod';
import { CouponTemplateStatus, DiscountKind } from '../../entities/coupon-template.entity.js';
import { GroupState } from '../../entities/group-buy.entity.js';
import { CouponState } from '../../services/promotions/coupon.service.js';
import { FlashSaleState } from '../../services/promotions/flash-sale.service.js';
import { count, id, money, named, page, ShopRef, timestamp } from './common.js';

const discountTerms = {
  discountKind: z.enum(DiscountKind),
  amountOff: money.optional(),
  percentOff: z.number().int().min(1).max(100).optional(),
  maxDiscount: money.optional(),
  minOrderAmount: money,
};

export const CouponTemplate = named(
  'CouponTemplate',
  z.strictObject({
    ...discountTerms,
    id,
    shopId: id,
    name: z.string(),
    validFrom: timestamp.optional(),
    validUntil: timestamp.optional(),
    validDays: z.number().int().positive().optional(),
    claimStock: count,
    status: z.enum(CouponTemplateStatus),
    createdAt: timestamp,
    updatedAt: timestamp,
    claimedCount: count.optional().describe("Coupons claimed from it: in the shop's own list only"),
    usedCount: count.optional().describe("Claimed coupons used at checkout: in the shop's own list only"),
  }),
);
export const CouponTemplatePage = named('CouponTemplatePage', page(CouponTemplate));

export const Coupon = named(
  'Coupon',
  z.strictObject({
    ...discountTerms,
    id,
    templateId: id.optional(),
    shop: ShopRef,
    name: z.string(),
    validFrom: timestamp,
    validUntil: timestamp,
    status: z.enum(CouponState),
    claimedAt: timestamp,
    usedAt: timestamp.optional(),
  }),
);
export const CouponPage = named('CouponPage', page(Coupon));

export const FlashSaleItem = named(
  'FlashSaleItem',
  z.strictObject({
    id,
    skuId: id,
    skuName: z.string(),
    productId: id,
    productName: z.string(),
    standardPrice: money,
    activityPrice: money,
    reservedStock: count,
    remainingStock: count,
    perCustomerLimit: z.number().int().positive(),
  }),
);
export const FlashSale = named(
  'FlashSale',
  z.strictObject({
    id,
    shop: ShopRef,
    name: z.string(),
    startsAt: timestamp,
    endsAt: timestamp,
    enabled: z.boolean(),
    state: z.enum(FlashSaleState),
    items: z.array(FlashSaleItem),
  }),
);
export const FlashSalePage = named('FlashSalePage', page(FlashSale));

const groupBuyFields = {
  id,
  shop: ShopRef,
  productId: id,
  productName: z.string(),
  skuId: id,
  skuName: z.string(),
  standardPrice: money,
  groupPrice: money,
  capacity: z.number().int().positive(),
  lifetimeMinutes: z.number().int().positive(),
  startsAt: timestamp,
  endsAt: timestamp,
  active: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
};
export const GroupBuy = named('GroupBuy', z.strictObject(groupBuyFields));
export const GroupBuyPage = named('GroupBuyPage', page(GroupBuy));

export const Group = named(
  'Group',
  z.strictObject({
    id,
    state: z.enum(GroupState),
    capacity: z.number().int().positive(),
    seatsTaken: count,
    seatsLeft: count,
    groupPrice: money,
    openedAt: timestamp,
    expiresAt: timestamp,
  }),
);
export const GroupBuyDetail = named('GroupBuyDetail', z.strictObject({ ...groupBuyFields, groups: z.array(Group) }));
export const MerchantGroupBuy = named(
  'MerchantGroupBuy',
  z.strictObject({ ...groupBuyFields, groupCounts: z.record(z.enum(GroupState), count) }),
);
export const MerchantGroupBuyPage = named('MerchantGroupBuyPage', page(MerchantGroupBuy));
