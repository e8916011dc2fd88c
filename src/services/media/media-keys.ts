/**
 * The thumbnails every picture gets, and their names. The storefront asks for them by width
 * (web/src/ui/image.tsx): a tile is 240 px wide (320 and 640 for dense screens), a product page up to
 * 640 (1280). A picture narrower than a width is not enlarged: that thumbnail is the picture's own size.
 */
export const THUMBNAIL_WIDTHS = [160, 320, 640, 1280] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

/** The width a picture's `url` names: the one a product page shows. */
export const DEFAULT_WIDTH: ThumbnailWidth = 640;

const KEY = /^[0-9a-f]{64}\/[0-9]{1,5}\.webp$/;

/** A thumbnail's key in the store: `<digest>/<width>.webp`. */
export const thumbnailKey = (digest: string, width: number) => `${digest}/${width}.webp`;

/** A thumbnail's address on this server (src/server/media-files.ts serves it). */
export const thumbnailPath = (digest: string, width: number) => `/media/${thumbnailKey(digest, width)}`;

/** Keys are made from a hex digest and a width; anything else is refused, so no key can name a place outside the store. */
export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a media key: ${key}`);
  return key;
}
