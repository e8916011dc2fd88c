import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from './support/harness.js';
import { seedDemoData } from '../src/seed/demo-seed.js';

let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  // The demo catalog: a listing page of 20 products is several kilobytes of JSON.
  t = await startTestApp();
  expect(await seedDemoData(t.orm, 'development')).toBe('seeded');
  off = await startTestApp({ jsonCompressionMinBytes: 0 });
  expect(await seedDemoData(off.orm, 'development')).toBe('seeded');
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with node:http, which (unlike fetch) neither asks for nor undoes an encoding by itself. */
function raw(app: TestApp, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.baseUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const decoded = (answer: RawAnswer): unknown => {
  const encoding = answer.headers['content-encoding'];
  const plain = encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return JSON.parse(plain.toString('utf8'));
};

const LISTING = '/api/products?page_size=20';
const GRAPHQL_LISTING = JSON.stringify({ query: '{ products(pageSize: 20) { items { id name description soldCount skus { id price stock } } } }' });

describe('JSON answers compressed for clients that accept it', () => {
  it('sends a large REST answer brotli-encoded, varying by Accept-Encoding, with the same JSON as the plain one', async () => {
    const plain = await raw(t, LISTING, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await raw(t, LISTING, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(decoded(br)).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('sends gzip to a client that accepts gzip only, and the plain answer to one that refuses both', async () => {
    const gz = await raw(t, LISTING, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((decoded(gz) as { items: unknown[] }).items).toHaveLength(20);
    const identity = await raw(t, LISTING, { 'accept-encoding': 'identity, br;q=0, gzip;q=0' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect((decoded(identity) as { items: unknown[] }).items).toHaveLength(20);
  });

  it('compresses a large GraphQL answer (application/graphql-response+json) the same way', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
    const plain = await raw(t, '/graphql', headers, GRAPHQL_LISTING);
    const br = await raw(t, '/graphql', { ...headers, 'accept-encoding': 'br' }, GRAPHQL_LISTING);
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/json/);
    expect(decoded(br)).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('leaves a small answer, and an error under the threshold, plain', async () => {
    const small = await raw(t, '/api/products?page_size=1', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    const missing = await raw(t, '/api/products/999999999', { 'accept-encoding': 'br, gzip' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect((decoded(missing) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('sends nothing compressed when JSON_COMPRESSION_MIN_BYTES is 0', async () => {
    const answer = await raw(off, LISTING, { 'accept-encoding': 'br, gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect((decoded(answer) as { items: unknown[] }).items).toHaveLength(20);
  });
});
