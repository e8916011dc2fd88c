import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { MediaAsset } from '../../entities/media-asset.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission, requireShopPermission } from '../../shared/guards.js';
import { type Page, PageQuery, pageOf, pageWindow } from '../../shared/pagination.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { parseInput, z } from '../../shared/validate.js';
import { DEFAULT_WIDTH, THUMBNAIL_WIDTHS, thumbnailPath } from './media-keys.js';
import type { MediaStore } from './media-store.js';
import { keepPicture } from './thumbnails.js';
import type { MediaAssetView } from './media-view.js';

export { MediaAssetView } from './media-view.js';

/**
 * Uploaded pictures (issue 44, "media"): a shop's (its products) and the platform's (shop logos and
 * banners, brands, home content). An upload is read by its bytes, thumbnailed (thumbnails.ts), put
 * in the media store, and recorded as an asset whose `url` goes into any image field. The same bytes
 * sent again by the same owner answer the asset they made the first time.
 */

/** What an upload carries besides its bytes, as both doors take it (REST in the query, GraphQL with the file). */
export const UploadMediaInput = z.strictObject({
  filename: z.string().trim().min(1).max(200).optional().describe('The name of the file, to find it again in the library (default `upload`)'),
});

/** A file as a door received it. */
export interface MediaUpload {
  bytes: Buffer;
  filename?: string;
}

// SERVICE_UNAVAILABLE: the media store did not answer (media-store.ts).
export const uploadShopMediaRefusals = refusals('MEDIA_UNREADABLE', 'MEDIA_TYPE_UNSUPPORTED', 'MEDIA_TOO_MANY_PIXELS', 'PAYLOAD_TOO_LARGE', 'SERVICE_UNAVAILABLE');
/** A picture of the acting shop (for its products). */
export function uploadShopMedia(ctx: ServiceContext, upload: MediaUpload): Promise<MediaAssetView> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopCatalogManage);
  return storeUpload(ctx, shopId, upload);
}

export const uploadPlatformMediaRefusals = refusals('MEDIA_UNREADABLE', 'MEDIA_TYPE_UNSUPPORTED', 'MEDIA_TOO_MANY_PIXELS', 'PAYLOAD_TOO_LARGE', 'SERVICE_UNAVAILABLE');

/** A picture of the platform (shop profiles, brands, home content). */
export function uploadPlatformMedia(ctx: ServiceContext, upload: MediaUpload): Promise<MediaAssetView> {
  requirePlatformPermission(ctx, Permission.PlatformContentManage);
  return storeUpload(ctx, null, upload);
}

/** The acting shop's pictures, newest first. */
export function listShopMedia(ctx: ServiceContext, input: unknown): Promise<Page<MediaAssetView>> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopCatalogManage);
  return listAssets(ctx, shopId, input);
}

/** The platform's pictures, newest first. */
export function listPlatformMedia(ctx: ServiceContext, input: unknown): Promise<Page<MediaAssetView>> {
  requirePlatformPermission(ctx, Permission.PlatformContentManage);
  return listAssets(ctx, null, input);
}

async function storeUpload(ctx: ServiceContext, shopId: number | null, upload: MediaUpload): Promise<MediaAssetView> {
  const { filename = 'upload' } = parseInput(UploadMediaInput, { filename: upload.filename });
  // The doors cap the body at this size too; checked again here for a caller that is not a door.
  const limit = ctx.config.media.maxBytes;
  if (upload.bytes.length > limit) throw new AppError('PAYLOAD_TOO_LARGE', 413, `The file is larger than ${limit} bytes`, { limit_bytes: limit });
  if (upload.bytes.length === 0) throw new AppError('MEDIA_UNREADABLE', 422, 'The file is empty');
  // The files first, then the row: a row never names files that are not there (thumbnails.ts).
  const picture = await keepPicture(ctx.wiring.mediaStore, upload.bytes);
  const known = await findAsset(ctx, shopId, picture.digest);
  if (known) return mediaView(known);
  try {
    const asset = await inTransaction(ctx, async (tx) => {
      const row = tx.em.create(MediaAsset, { shop: shopId, ...picture, filename, uploadedBy: ctx.actor?.userId ?? null });
      await tx.em.flush();
      return row;
    });
    return mediaView(asset);
  } catch (error) {
    // The same picture sent twice at once: the second finds the first's row.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const twin = await findAsset(ctx, shopId, picture.digest);
    if (!twin) throw error;
    return mediaView(twin);
  }
}

function findAsset(ctx: ServiceContext, shopId: number | null, digest: string): Promise<MediaAsset | null> {
  return ctx.em.fork().findOne(MediaAsset, { shop: shopId, digest });
}

async function listAssets(ctx: ServiceContext, shopId: number | null, input: unknown): Promise<Page<MediaAssetView>> {
  const paging = parseInput(PageQuery, input ?? {});
  const [assets, total] = await ctx.em.findAndCount(MediaAsset, { shop: shopId }, { orderBy: { id: 'desc' }, ...pageWindow(paging) });
  return pageOf(assets.map(mediaView), paging, total);
}

function mediaView(asset: MediaAsset): MediaAssetView {
  return {
    id: asset.id,
    shopId: asset.shop?.id ?? null,
    url: thumbnailPath(asset.digest, DEFAULT_WIDTH),
    thumbnails: THUMBNAIL_WIDTHS.map((width) => ({ width, url: thumbnailPath(asset.digest, width) })),
    filename: asset.filename,
    format: asset.format,
    width: asset.width,
    height: asset.height,
    byteSize: asset.byteSize,
    createdAt: asset.createdAt,
  };
}

declare module '../../shared/context.js' {
  interface ServiceWiring {
    /** Where uploaded pictures are kept (MEDIA_STORE; src/services/wiring.ts). */
    mediaStore: MediaStore;
  }
}
