import type { Router } from 'express';
import { AppError } from '../errors.js';
import * as media from '../services/media/media.service.js';
import { PICTURE_FORMATS } from '../services/media/thumbnails.js';
import type { MediaUpload } from '../services/media/media.service.js';
import { PageQuery } from '../shared/pagination.js';
import { Permission } from '../shared/permissions.js';
import { Reply, route, type RestCall } from './route.js';
import { MediaAsset, MediaAssetPage } from './responses/media.js';

const tag = 'Media';

/** The paths whose POST body is a file (app.ts reads it as bytes, up to MEDIA_MAX_BYTES). */
export const FILE_BODY_PATHS: ReadonlySet<string> = new Set(['/merchant/media', '/admin/media']);

const fileBody = {
  mediaTypes: PICTURE_FORMATS.map((format) => `image/${format}`),
  description: "The picture's bytes as the body (not a form): its format is read from them, whatever `Content-Type` says. JPEG, PNG, WebP, GIF (its first frame) or AVIF, up to MEDIA_MAX_BYTES.",
};

const description =
  'Answers the picture with its thumbnails (WebP, 160 to 1280 px wide, upright, without the file\'s metadata), served under `/media/` with a year\'s cache. Its `url` goes into any image field. The same file sent again answers the same picture.';

/** The file a media route was sent, or a refusal that says how to send one. */
function upload({ fileBody: bytes, query }: RestCall): MediaUpload {
  const file = bytes();
  if (!file) throw new AppError('MEDIA_TYPE_UNSUPPORTED', 415, 'Send the picture itself as the body, with its image type (Content-Type: image/jpeg, say), not JSON or a form', { allowed: [...PICTURE_FORMATS] });
  return { bytes: file, filename: typeof query.filename === 'string' ? query.filename : undefined };
}

/** Pictures: a shop's for its products, the platform's for shop profiles, brands and home content. */
export function mediaRoutes(router: Router) {
  route(router, '/merchant/media', {
    get: {
      doc: { tag, summary: "The acting shop's pictures, newest first", permission: Permission.ShopCatalogManage, query: PageQuery, response: MediaAssetPage },
      handle: ({ ctx, query }) => media.listShopMedia(ctx, query),
    },
    post: {
      doc: {
        tag, summary: 'Upload a picture for the acting shop', description, permission: Permission.ShopCatalogManage, query: media.UploadMediaInput,
        fileBody, response: MediaAsset, status: 201, errors: media.uploadShopMediaRefusals,
      },
      handle: async (call) => new Reply(201, await media.uploadShopMedia(call.ctx, upload(call))),
    },
  });
  route(router, '/admin/media', {
    get: {
      doc: { tag, summary: "The platform's pictures, newest first", permission: Permission.PlatformContentManage, query: PageQuery, response: MediaAssetPage },
      handle: ({ ctx, query }) => media.listPlatformMedia(ctx, query),
    },
    post: {
      doc: {
        tag, summary: 'Upload a picture of the platform (shop logos and banners, brands, home content)', description, permission: Permission.PlatformContentManage,
        query: media.UploadMediaInput, fileBody, response: MediaAsset, status: 201, errors: media.uploadShopMediaRefusals,
      },
      handle: async (call) => new Reply(201, await media.uploadPlatformMedia(call.ctx, upload(call))),
    },
  });
}
