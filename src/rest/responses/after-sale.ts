import { z } from 'zod';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import { DisputeStatus } from '../../entities/dispute.entity.js';
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

export const Dispute = named(
  'Dispute',
  z.strictObject({
    id,
    refundId: id,
    orderId: id,
    customerId: id,
    shop: ShopRef,
    status: z.enum(DisputeStatus),
    /** The customer's reason for escalating. */
    reason: z.string(),
    refundKind: z.enum(RefundKind),
    /** What the rejected request asked for. */
    requestedAmount: money,
    /** The shop's reason for rejecting. */
    shopRejectReason: z.string().optional(),
    currency: z.string(),
    /** The platform's ruling, read by both sides. */
    ruling: z.string().optional(),
    /** What the ruling refunded (0 unless refunded). */
    refundedAmount: money,
    /** The completed refund the ruling created. */
    ruledRefundId: id.optional(),
    createdAt: timestamp,
    ruledAt: timestamp.optional(),
  }),
);
export const DisputePage = named('DisputePage', page(Dispute));
