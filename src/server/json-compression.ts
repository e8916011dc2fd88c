import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { NextFunction, Request, Response } from 'express';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Brotli at quality 4 and gzip at level 6: a listing page shrinks about as much as at brotli's
 * maximum, at a small fraction of its CPU (quality 11 is for the build's precompressed assets,
 * which are compressed once, not once per answer).
 */
const ENCODERS = {
  br: (body: Buffer) => brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body: Buffer) => gzipped(body, { level: 6 }),
} as const;

/**
 * Compresses JSON answers (REST and GraphQL, whose bodies go through `res.send`) of at least
 * `minBytes`, in the encoding the client prefers (brotli before gzip), off the event loop (zlib's
 * thread pool). Smaller answers go out plain: below about one packet, compressing saves no round
 * trip and costs CPU. Everything else (event streams, pages, images: those have their own
 * precompressed twins) passes untouched. `minBytes` 0 turns it off.
 */
export function jsonCompression(minBytes: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (minBytes <= 0 || req.method === 'HEAD') return next();
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const encoding = encodingFor(req, res, body, minBytes);
      if (!encoding) return send(body);
      // The answer varies by Accept-Encoding whichever encoding this request gets.
      res.vary('Accept-Encoding');
      const plain = typeof body === 'string' ? Buffer.from(body) : (body as Buffer);
      ENCODERS[encoding](plain).then(
        (encoded) => {
          res.set('Content-Encoding', encoding);
          send(encoded);
        },
        // zlib refusing a buffer is a bug of ours, not the client's: the plain answer still serves it.
        () => send(body),
      );
      return res;
    };
    next();
  };
}

function encodingFor(req: Request, res: Response, body: unknown, minBytes: number): keyof typeof ENCODERS | undefined {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return undefined;
  if (Buffer.byteLength(body) < minBytes) return undefined;
  if (res.getHeader('Content-Encoding') !== undefined) return undefined;
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(String(res.getHeader('Content-Type') ?? ''))) return undefined;
  // Brotli whenever it is acceptable at all (browsers list it after gzip, at the same weight), as for the precompressed assets.
  return (['br', 'gzip'] as const).find((name) => req.acceptsEncodings(name) === name);
}
