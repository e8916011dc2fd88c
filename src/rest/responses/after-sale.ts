import { DisputeView } from '../../services/after-sale/dispute-view.js';
import { ReviewReplyView, ReviewView } from '../../services/after-sale/review-view.js';
import { RefundItemView, RefundView, ReturnShipmentView } from '../../services/after-sale/refund-view.js';
import { named, page } from './common.js';
import { RatingSummary } from './catalog.js';

export const RefundItem = named('RefundItem', RefundItemView);
export const ReturnShipment = named('ReturnShipment', ReturnShipmentView);
export const Refund = named('Refund', RefundView);
export const RefundPage = named('RefundPage', page(Refund));

export const ReviewReply = named('ReviewReply', ReviewReplyView);
export const Review = named('Review', ReviewView);
export const ReviewPage = named('ReviewPage', page(Review));
export const ProductReviewPage = named('ProductReviewPage', page(Review).extend({ summary: RatingSummary }));

export const Dispute = named('Dispute', DisputeView);
export const DisputePage = named('DisputePage', page(Dispute));
