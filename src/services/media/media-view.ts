import { z } from '../../shared/validate.js';
import { count, id, timestamp } from '../../shared/view-fields.js';

/** The views of uploaded pictures: REST publishes these schemas and GraphQL's types are made from them. */
export const ThumbnailView = z
  .strictObject({
    width: count.describe('The width asked for; a picture narrower than it is not enlarged'),
    url: z.string().describe('Its address on this server, cached for a year (it never changes)'),
  })
  .describe('One thumbnail of a picture (WebP)');
export type ThumbnailView = z.infer<typeof ThumbnailView>;

export const MediaAssetView = z
  .strictObject({
    id,
    shopId: id.nullable().describe("The shop's picture, or null for the platform's own"),
    url: z.string().describe('The address to put in an image field (a product\'s image, a shop\'s logo): its 640 px thumbnail; the storefront picks the other widths from it'),
    thumbnails: z.array(ThumbnailView),
    filename: z.string().describe('The name the file had when it was sent'),
    format: z.string().describe('The format the file was in, read from its bytes: jpeg, png, webp, gif or avif'),
    width: count.describe('Its width in pixels, upright'),
    height: count.describe('Its height in pixels, upright'),
    byteSize: count.describe('The size of the file sent'),
    createdAt: timestamp,
  })
  .describe('An uploaded picture with its thumbnails');
export type MediaAssetView = z.infer<typeof MediaAssetView>;
