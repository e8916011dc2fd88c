import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * JSON answers at least this long are compressed for a client that accepts it: below, the saving
 * hardly outweighs the headers and the CPU (the same threshold as the built assets', web/vite.config.ts).
 */
export const JSON_COMPRESSION_MIN_BYTES = 1024;

/** `application/json` and its `+json` kinds (GraphQL's `application/graphql-response+json`). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * Per-request settings: brotli at quality 4 (quality 11 is right for assets compressed once at build
 * time, not for every answer) and gzip at its default level 6. Both run on libuv's thread pool, not
 * on the event loop. Costs measured: docs/performance.md.
 */
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const ENCODERS: Record<'br' | 'gzip', (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzipped(body, { level: 6 }),
};

/**
 * Compresses the JSON answers of the doors it is mounted on (REST under /api, GraphQL over HTTP) with
 * brotli or gzip, as `Accept-Encoding` allows (brotli when accepted, else gzip), once they
 * reach `minBytes`; every answer says `Vary: Accept-Encoding`. Only whole bodies given to
 * `res.send` (which `res.json` and Apollo's Express integration call) are touched: anything written
 * in pieces (an event stream) and the websocket's frames (never through Express) are left as they are.
 */
export function compressJson(minBytes = JSON_COMPRESSION_MIN_BYTES): RequestHandler {
  // JSON_COMPRESSION_MIN_BYTES=0: a proxy in front compresses, or nothing should.
  if (minBytes <= 0) return (_req: Request, _res: Response, next: NextFunction) => next();
  return (req: Request, res: Response, next: NextFunction) => {
    if (res.getHeader('Vary') === undefined) res.setHeader('Vary', 'Accept-Encoding');
    else res.vary('Accept-Encoding');
    // A client that sends no Accept-Encoding accepts no encoding here (as `acceptsEncodings` says):
    // its answers need no wrapper. For the others, one shared function, no closure per request.
    const header = req.headers['accept-encoding'];
    if (header !== undefined && header !== '') {
      (res as CompressingResponse)[MIN_BYTES] = minBytes;
      res.send = compressingSend;
    }
    next();
  };
}

const MIN_BYTES = Symbol('jsonCompressionMinBytes');
type CompressingResponse = Response & { [MIN_BYTES]: number };

/** `res.send` of a response that may be compressed: Express's own (the prototype's) for what is not. */
function compressingSend(this: CompressingResponse, body?: unknown): Response {
  const send = (Object.getPrototypeOf(this) as Response).send;
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.isBuffer(body) ? body : undefined;
  const encoding = payload && payload.length >= this[MIN_BYTES] && compressible(this.req, this) ? accepted(this.req) : undefined;
  if (!payload || !encoding) return send.call(this, body);
  ENCODERS[encoding](payload).then(
    (compressed) => {
      this.set('Content-Encoding', encoding);
      send.call(this, compressed);
    },
    // Compression failing is no reason to fail the answer: it goes out as it is.
    () => send.call(this, payload),
  );
  return this;
}

function compressible(req: Request, res: Response): boolean {
  if (req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304 || res.getHeader('Content-Encoding')) return false;
  const type = res.getHeader('Content-Type');
  return typeof type === 'string' && JSON_TYPE.test(type);
}

/** The encoding to use, brotli before gzip as for the built assets (precompressed.ts), or undefined when the client accepts neither. */
function accepted(req: Request): 'br' | 'gzip' | undefined {
  return (['br', 'gzip'] as const).find((name) => req.acceptsEncodings(name) === name);
}
