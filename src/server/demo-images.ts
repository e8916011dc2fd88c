import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { demoImageSvg, type DemoImageKind } from '../services/media/demo-drawings.js';

const PATH = /^\/demo-images\/(products|brands|shops|banners|content|points)\/([a-z0-9-]{1,40})\.svg$/;

/** Serves the demo's drawings (src/services/media/demo-drawings.ts) at `/demo-images/...`, cached for a year; anything else goes on. */
export function demoImages(): RequestHandler {
  const cache = new Map<string, Buffer>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const match = PATH.exec(req.path);
    if (!match) return next();
    let body = cache.get(req.path);
    if (!body) {
      body = Buffer.from(demoImageSvg(match[1] as DemoImageKind, match[2]));
      // Bounded by the path's shape in practice; a cap keeps a crawler of made-up names from growing it.
      if (cache.size < 5_000) cache.set(req.path, body);
    }
    res
      .status(200)
      .set({
        'Content-Type': 'image/svg+xml',
        'Cache-Control': 'public, max-age=31536000, immutable',
        // An SVG opened by itself runs no script and loads nothing.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
        'X-Content-Type-Options': 'nosniff',
      })
      .send(body);
  };
}
