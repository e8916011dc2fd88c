import { createHash } from 'node:crypto';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { AppError, refused } from '../../errors.js';
import { THUMBNAIL_WIDTHS, thumbnailKey, type ThumbnailWidth } from './media-keys.js';
import { storeUnreachable, type MediaStore } from './media-store.js';

/** The formats an upload may be, as sharp names what it read. SVG is not one: it is a document that can carry script and other files' addresses. */
export const PICTURE_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'avif'] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

/**
 * sharp (libvips) is loaded by the first picture, not at start: a process that never takes an upload
 * (most of a cluster, most of the time) does not carry it (about 24 MB resident). Its operation cache
 * is off: each upload is a new file, so libvips would only keep decoded pictures (up to 50 MB by
 * default) that nothing asks for again.
 */
let loaded: Promise<(input: Buffer, options: SharpOptions) => Sharp> | undefined;
function sharpOf(): Promise<(input: Buffer, options: SharpOptions) => Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return (input, options) => sharp(input, options);
  });
  return loaded;
}

/** A picture larger than this many pixels is refused before it is decoded: a small file can unpack to gigabytes. */
export const MAX_PIXELS = 50_000_000;

export interface Picture {
  format: PictureFormat;
  /** As shown: a photo a camera turned (EXIF orientation 5-8) has its width and height swapped. */
  width: number;
  height: number;
}

/**
 * What the bytes are, by their content (never by the name or type the sender gave): refused when
 * they are no picture, another format, or too many pixels.
 */
export async function readPicture(bytes: Buffer): Promise<Picture> {
  let meta: Metadata;
  try {
    meta = await (await sharpOf())(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refused('MEDIA_UNREADABLE', 'The file is not a picture that can be read (JPEG, PNG, WebP, GIF or AVIF)');
  }
  const format = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
  if (!(PICTURE_FORMATS as readonly string[]).includes(format)) {
    throw new AppError('MEDIA_TYPE_UNSUPPORTED', 415, `${format.toUpperCase()} files cannot be uploaded: send JPEG, PNG, WebP, GIF or AVIF`, { allowed: [...PICTURE_FORMATS] });
  }
  if (!meta.width || !meta.height) throw refused('MEDIA_UNREADABLE', 'The picture has no size');
  if (meta.width * meta.height > MAX_PIXELS) {
    throw refused('MEDIA_TOO_MANY_PIXELS', `The picture has ${meta.width} x ${meta.height} pixels; at most ${MAX_PIXELS} are taken`, { limit: MAX_PIXELS });
  }
  const turned = (meta.orientation ?? 1) >= 5;
  return { format: format as PictureFormat, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
}

/**
 * The thumbnails of a picture, WebP at each width (never enlarged), turned upright and stripped of
 * its metadata (a phone's photo carries where it was taken). Decoding fails on a file that is broken
 * past its header: that is the sender's file, refused like an unreadable one.
 */
export async function makeThumbnails(bytes: Buffer): Promise<{ width: ThumbnailWidth; body: Buffer }[]> {
  const source = (await sharpOf())(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
  try {
    return await Promise.all(
      THUMBNAIL_WIDTHS.map(async (width) => ({ width, body: await source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 80, effort: 2 }).toBuffer() })),
    );
  } catch {
    throw refused('MEDIA_UNREADABLE', 'The picture is damaged and cannot be read');
  }
}

/**
 * Puts a picture's thumbnails in the store under its digest, unless they are there already (the same
 * bytes were sent before: keys name content). Done before the picture's row is written, so a row
 * never points at missing files; a process stopped between the two leaves only files a later upload
 * of the same picture uses. The widest is put last, after the others are in: its presence alone says
 * the set is whole, so a picture sent again costs one look at the store (one HEAD on S3), not four.
 */
export async function storeThumbnails(store: MediaStore, digest: string, bytes: Buffer): Promise<void> {
  const last = THUMBNAIL_WIDTHS[THUMBNAIL_WIDTHS.length - 1];
  const unreachable = (error: unknown) => {
    throw storeUnreachable(error);
  };
  if (await store.has(thumbnailKey(digest, last)).catch(unreachable)) return;
  const thumbnails = await makeThumbnails(bytes);
  const put = ({ width, body }: { width: number; body: Buffer }) => store.put(thumbnailKey(digest, width), body, 'image/webp');
  await Promise.all(thumbnails.filter((t) => t.width !== last).map(put)).catch(unreachable);
  await put(thumbnails.find((t) => t.width === last)!).catch(unreachable);
}

/** A picture read, thumbnailed and kept: what its asset row records. */
export interface KeptPicture extends Picture {
  digest: string;
  byteSize: number;
}

/**
 * The whole pipeline of one file, for an upload and for the demo seed alike: read by its bytes (or
 * refused), named by their SHA-256, thumbnailed into the store.
 */
export async function keepPicture(store: MediaStore, bytes: Buffer): Promise<KeptPicture> {
  const picture = await readPicture(bytes);
  const digest = createHash('sha256').update(bytes).digest('hex');
  await storeThumbnails(store, digest, bytes);
  return { ...picture, digest, byteSize: bytes.length };
}
