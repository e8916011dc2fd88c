import { z } from '../../shared/validate.js';
import { id, timestamp } from '../../shared/view-fields.js';

/** The views of reviews: REST publishes these schemas and GraphQL's types are made from them. */
export const ReviewReplyView = z.strictObject({ text: z.string(), repliedAt: timestamp });
export type ReviewReplyView = z.infer<typeof ReviewReplyView>;

export const ReviewView = z.strictObject({
  id,
  productId: id,
  productName: z.string().describe("The product's name now"),
  shopId: id,
  shopName: z.string(),
  orderItemId: id,
  skuName: z.string(),
  author: z.string().describe("The reviewer's display name masked to its first character"),
  rating: z.number().int().min(1).max(5),
  text: z.string(),
  imageUrls: z.array(z.string()),
  hidden: z.boolean().describe('Always false in public reads, which leave hidden reviews out'),
  reply: ReviewReplyView.optional(),
  createdAt: timestamp,
});
export type ReviewView = z.infer<typeof ReviewView>;
