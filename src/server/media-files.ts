import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { thumbnailKey } from '../services/media/media-keys.js';
import { storeUnreachable, type MediaStore } from '../services/media/media-store.js';

const PATH = /^\/media\/([0-9a-f]{64})\/([0-9]{1,5})\.webp$/;

/**
 * Serves uploaded pictures' thumbnails, `/media/<digest>/<width>.webp`, from the media store
 * (whichever MEDIA_STORE is). A key names its bytes (the digest of the file they were made from), so
 * the answer is cached for a year, by browsers and any CDN in front; its ETag is the key itself.
 * Anything else goes on; a thumbnail the store does not hold is a 404 like any unknown path.
 */
export function mediaFiles(store: MediaStore): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const match = PATH.exec(req.path);
    if (!match) return next();
    const key = thumbnailKey(match[1], Number(match[2]));
    const etag = `"${match[1].slice(0, 32)}-${match[2]}"`;
    const headers = { 'Cache-Control': 'public, max-age=31536000, immutable', ETag: etag, 'X-Content-Type-Options': 'nosniff' };
    if (req.headers['if-none-match'] === etag) {
      res.status(304).set(headers).end();
      return;
    }
    store.get(key).then(
      (body) => {
        if (!body) return next();
        res.status(200).set({ ...headers, 'Content-Type': 'image/webp' }).send(body);
      },
      (error: unknown) => next(storeUnreachable(error)),
    );
  };
}
