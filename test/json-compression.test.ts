import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newProduct, newShop } from './support/fixtures.js';
import { compressJson, JSON_COMPRESSION_MIN_BYTES } from '../src/server/json-compression.js';

/**
 * JSON answers of REST and GraphQL over HTTP are compressed above a threshold, by `Accept-Encoding`,
 * with `Vary: Accept-Encoding` on every answer; what is written in pieces (an event stream) is not.
 */
let t: TestApp;
let listing: string;

beforeAll(async () => {
  t = await startTestApp();
  const shop = await newShop(t);
  const category = await newCategory(t);
  for (let i = 0; i < 12; i++) await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `Compressible lantern ${i}` });
  listing = `/api/products?page_size=20&category=${category.id}`;
});
afterAll(() => t.close());

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose answer is read byte for byte (fetch would inflate it). */
function raw(url: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const inflate = (res: Raw): unknown => {
  const encoding = res.headers['content-encoding'];
  const plain = encoding === 'br' ? brotliDecompressSync(res.body) : encoding === 'gzip' ? gunzipSync(res.body) : res.body;
  return JSON.parse(plain.toString('utf8'));
};

describe('JSON compression', () => {
  it('compresses a REST listing with brotli or gzip as accepted, and sends it plain to a client that accepts neither', async () => {
    const plain = await raw(t.baseUrl + listing, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.body.length).toBeGreaterThan(JSON_COMPRESSION_MIN_BYTES);
    const expected = JSON.parse(plain.body.toString('utf8')) as { items: unknown[] };
    expect(expected.items).toHaveLength(12);

    const br = await raw(t.baseUrl + listing, { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.status, br.headers['content-encoding'], br.headers['content-type']]).toEqual([200, 'br', 'application/json; charset=utf-8']);
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(inflate(br)).toEqual(expected);

    const gzip = await raw(t.baseUrl + listing, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(inflate(gzip)).toEqual(expected);

    for (const refused of ['identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const res = await raw(t.baseUrl + listing, { 'accept-encoding': refused });
      expect([refused, res.headers['content-encoding']]).toEqual([refused, undefined]);
      expect(res.body.equals(plain.body)).toBe(true);
    }
  });

  it('compresses a GraphQL answer over HTTP the same way', async () => {
    const query = JSON.stringify({ query: '{ products(pageSize: 20) { items { id name priceFrom shop { id slug name } } } }' });
    const headers = { 'content-type': 'application/json' };
    const plain = await raw(`${t.baseUrl}/graphql`, headers, query);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(JSON_COMPRESSION_MIN_BYTES);
    const gzip = await raw(`${t.baseUrl}/graphql`, { ...headers, 'accept-encoding': 'gzip' }, query);
    expect([gzip.status, gzip.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gzip.headers.vary).toContain('Accept-Encoding');
    expect(inflate(gzip)).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('leaves answers below the threshold as they are, errors included', async () => {
    const currency = await raw(`${t.baseUrl}/api/currency`, { 'accept-encoding': 'br, gzip' });
    expect(currency.status).toBe(200);
    expect(currency.body.length).toBeLessThan(JSON_COMPRESSION_MIN_BYTES);
    expect([currency.headers['content-encoding'], currency.headers.vary]).toEqual([undefined, expect.stringContaining('Accept-Encoding')]);
    const missing = await raw(`${t.baseUrl}/api/products/999999999`, { 'accept-encoding': 'br, gzip' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect((inflate(missing) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('never touches a body written in pieces (an event stream) or one that is not JSON', async () => {
    const app = express();
    const big = 'x'.repeat(4 * JSON_COMPRESSION_MIN_BYTES);
    app.use(compressJson());
    app.get('/stream', (_req, res) => {
      res.set('Content-Type', 'text/event-stream');
      res.write(`data: ${big}\n\n`);
      res.end(`data: ${big}\n\n`);
    });
    app.get('/json-in-pieces', (_req, res) => {
      res.set('Content-Type', 'application/json');
      res.write(`"${big}`);
      res.end('"');
    });
    app.get('/html', (_req, res) => {
      res.type('html').send(`<p>${big}</p>`);
    });
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const [path, length] of [['/stream', 2 * (big.length + 8)], ['/json-in-pieces', big.length + 2], ['/html', big.length + 7]] as const) {
        const res = await raw(base + path, { 'accept-encoding': 'br, gzip' });
        expect([path, res.headers['content-encoding'], res.body.length]).toEqual([path, undefined, length]);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('compresses nothing when JSON_COMPRESSION_MIN_BYTES is 0', async () => {
    const off = await startTestApp({ jsonCompressionMinBytes: 0 }, { database: t.dbName });
    try {
      const res = await raw(off.baseUrl + listing, { 'accept-encoding': 'br, gzip' });
      expect([res.status, res.headers['content-encoding']]).toEqual([200, undefined]);
      expect((inflate(res) as { items: unknown[] }).items).toHaveLength(12);
    } finally {
      await off.close();
    }
  });
});
