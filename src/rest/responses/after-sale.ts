import { z } from 'zod';
import { DisputeView } from '../../services/after-sale/dispute-view.js';
import { RefundItemView, RefundView, ReturnShipmentView } from '../../services/after-sale/refund-view.js';
import { id, named, page, timestamp } from './common.js';
import { RatingSummary } from './catalog.js';

export const RefundItem = named('RefundItem', RefundItemView);
export const ReturnShipment = named('ReturnShipment', ReturnShipmentView);
export const Refund = named('Refund', RefundView);
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
