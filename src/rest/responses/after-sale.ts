import { z } from 'zod';
import { DisputeView } from '../../services/after-sale/dispute-view.js';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import { count, id, money, named, page, ShopRef, timestamp } from './common.js';
import { RatingSummary } from './catalog.js';

export const Refund = named(
  'Refund',
  z.strictObject({
    id,
    orderId: id,
    customerId: id,
    shop: ShopRef,
    kind: z.enum(RefundKind),
    status: z.enum(RefundStatus),
    reason: z.string(),
    currency: z.string(),
    amount: money,
    freightAmount: money,
    items: z.array(
      z.strictObject({ orderItemId: id, productId: id, productName: z.string(), skuName: z.string(), quantity: count, amount: money }),
    ),
    rejectReason: z.string().optional(),
    returnShipment: z
      .strictObject({ companyCode: z.string(), carrier: z.string(), trackingNumber: z.string(), shippedAt: timestamp })
      .optional(),
    createdAt: timestamp,
    decidedAt: timestamp.optional(),
    completedAt: timestamp.optional(),
    cancelledAt: timestamp.optional(),
  }),
);
export const RefundPage = named('RefundPage', page(Refund));

export const Review = named(
  'Review',
  z.strictObject({
    id,
    productId: id,
    productName: z.string(),
    shopId: id,
    shopName: z.string(),
    orderItemId: id,
    skuName: z.string(),
    author: z.string(),
    rating: z.number().int().min(1).max(5),
    text: z.string(),
    imageUrls: z.array(z.string()),
    hidden: z.boolean(),
    reply: z.strictObject({ text: z.string(), repliedAt: timestamp }).optional(),
    createdAt: timestamp,
  }),
);
export const ReviewPage = named('ReviewPage', page(Review));
export const ProductReviewPage = named('ProductReviewPage', page(Review).extend({ summary: RatingSummary }));

export const Dispute = named('Dispute', DisputeView);
export const DisputePage = named('DisputePage', page(Dispute));
