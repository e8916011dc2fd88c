import { existsSync, readFileSync } from 'node:fs';
import type { Request, Response } from 'express';

/** Encodings the build writes next to a file (web/vite.config.ts), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The encoded twin of a built file the client accepts (brotli before gzip), or null: then the plain
 * file is sent. Either way the answer varies by `Accept-Encoding`, which caches must know.
 */
export function precompressedTwin(req: Request, file: string): { path: string; encoding: string } | null {
  for (const { name, suffix } of ENCODINGS) {
    if (req.acceptsEncodings(name) === name && existsSync(file + suffix)) return { path: file + suffix, encoding: name };
  }
  return null;
}

/** A page held in memory with its encoded twins (read once at start). */
export interface EncodedPage {
  plain: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export function readEncodedPage(file: string): EncodedPage {
  const twin = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
  return { plain: readFileSync(file), br: twin('.br'), gzip: twin('.gz') };
}

/** The body of a page for this request, setting `Content-Encoding` when it is an encoded twin. */
export function pageBody(req: Request, res: Response, page: EncodedPage): Buffer {
  res.vary('Accept-Encoding');
  for (const name of ['br', 'gzip'] as const) {
    const body = page[name];
    if (body && req.acceptsEncodings(name) === name) {
      res.set('Content-Encoding', name);
      return body;
    }
  }
  return page.plain;
}
