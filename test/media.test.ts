import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newMember, newOperator, newShop, newStaff, type TestUser } from './support/fixtures.js';
import { startS3StandIn, type S3StandIn } from './support/s3-stand-in.js';
import { loadConfig } from '../src/config.js';
import { ShopRole } from '../src/entities/shop-membership.entity.js';
import { PlatformRole } from '../src/entities/user.entity.js';
import type { MediaStore } from '../src/services/media/media-store.js';
import { keepPicture } from '../src/services/media/thumbnails.js';

/**
 * Uploaded pictures (issue 44, "media"): a shop's catalog staff and the platform's content staff
 * upload pictures over both doors (REST takes the bytes as the body, GraphQL a multipart request);
 * each is read by its bytes, thumbnailed at 160-1280 px in WebP (upright, metadata stripped), kept in
 * the media store (a directory, or an S3 bucket: here the stand-in, reached through the AWS SDK), and
 * served under `/media/` with a year's cache. Bad files are refused with a clear code and leave no
 * row and no file.
 */
let t: TestApp;
let dir: string;
let shop: { id: number };
let owner: TestUser;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mallfront-media-'));
  t = await startTestApp({ media: { maxBytes: 2 * 1024 * 1024, store: { kind: 'disk', dir } } });
  shop = await newShop(t);
  owner = await newOperator(t, shop.id);
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A picture of `width` x `height` in one colour: each call with another colour is another file. */
const picture = (width: number, height: number, colour: { r: number; g: number; b: number }, format: 'png' | 'jpeg' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: colour } })[format]().toBuffer();

let hue = 0;
const freshPng = (width = 900, height = 600) => picture(width, height, { r: hue++ % 256, g: 120, b: Math.floor(hue / 256) % 256 });

const upload = (bytes: Buffer, token: string, contentType = 'image/png', query = '', base = '/api/merchant/media') =>
  t.api('POST', `${base}${query}`, { token, raw: bytes, headers: { 'content-type': contentType } });

const rowCount = async () => Number((await t.sql<{ n: string }>('select count(*) as n from media_asset'))[0].n);
const filesInStore = async () => (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.webp')).length;

/** A GraphQL multipart request (the GraphQL multipart request specification), as Apollo's upload client sends it. */
async function gqlUpload(mutation: string, bytes: Buffer, token: string, options: { preflight?: boolean; filename?: string } = {}) {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query: mutation, variables: { input: { file: null } } }));
  form.append('map', JSON.stringify({ 0: ['variables.input.file'] }));
  form.append('0', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), options.filename ?? 'photo.png');
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(options.preflight === false ? {} : { 'apollo-require-preflight': 'true' }) },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}
const UPLOAD_SHOP = 'mutation($input: UploadShopMediaInput!) { uploadShopMedia(input: $input) { asset { id shopId url filename format width height thumbnails { width url } } userErrors { code message } } }';

describe('uploads over REST', () => {
  it('keeps a picture with its thumbnails, served with a year of cache, and answers the same picture for the same file', async () => {
    const bytes = await freshPng(900, 600);
    const res = await upload(bytes, owner.token, 'image/png', '?filename=Red%20kettle.png');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ shop_id: shop.id, filename: 'Red kettle.png', format: 'png', width: 900, height: 600, byte_size: bytes.length });
    expect(res.body.url).toMatch(/^\/media\/[0-9a-f]{64}\/640\.webp$/);
    expect(res.body.thumbnails.map((th: { width: number }) => th.width)).toEqual([160, 320, 640, 1280]);
    // Each thumbnail is WebP at its width (never enlarged past the picture's own 900).
    for (const { width, url } of res.body.thumbnails as { width: number; url: string }[]) {
      const served = await fetch(t.baseUrl + url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([meta.format, meta.width]).toEqual(['webp', Math.min(width, 900)]);
      // A browser that has it asks again with its ETag and is told nothing changed.
      const again = await fetch(t.baseUrl + url, { headers: { 'if-none-match': served.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    const twice = await upload(bytes, owner.token);
    expect([twice.status, twice.body.id, twice.body.url]).toEqual([201, res.body.id, res.body.url]);
    const list = await t.api('GET', '/api/merchant/media', { token: owner.token });
    expect(list.body.items.filter((a: { id: number }) => a.id === res.body.id)).toHaveLength(1);
  });

  it('turns a phone photo upright and strips where it was taken', async () => {
    // 600 x 400 pixels stored sideways, with EXIF orientation 6 (turn 90 degrees) and a telltale tag.
    const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 10, g: 200, b: 30 } } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'taken-at-home-51.5N' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const res = await upload(photo, owner.token, 'image/jpeg');
    expect(res.status).toBe(201);
    expect([res.body.format, res.body.width, res.body.height]).toEqual(['jpeg', 400, 600]);
    const thumb = Buffer.from(await (await fetch(t.baseUrl + res.body.url)).arrayBuffer());
    const meta = await sharp(thumb).metadata();
    expect([meta.width, meta.height, meta.exif, meta.orientation]).toEqual([400, 600, undefined, undefined]);
    expect(thumb.includes('taken-at-home')).toBe(false);
  });

  it('refuses what is not a picture it takes, with a clear code, and keeps nothing', async () => {
    const rows = await rowCount();
    const files = await filesInStore();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const cases: [Buffer, string, number, string][] = [
      [Buffer.from('this is not a picture at all'), 'image/png', 422, 'MEDIA_UNREADABLE'],
      [svg, 'image/svg+xml', 415, 'MEDIA_TYPE_UNSUPPORTED'],
      [await sharp({ create: { width: 40, height: 40, channels: 3, background: 'red' } }).tiff().toBuffer(), 'image/tiff', 415, 'MEDIA_TYPE_UNSUPPORTED'],
      // The header of a PNG with the rest cut off: it reads as a PNG, and fails when decoded.
      [(await freshPng(400, 400)).subarray(0, 60), 'image/png', 422, 'MEDIA_UNREADABLE'],
      // 10,000 x 6,000 pixels in a small file: refused before it is decoded.
      [await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: 'black' } }).png({ compressionLevel: 9 }).toBuffer(), 'image/png', 422, 'MEDIA_TOO_MANY_PIXELS'],
      // Larger than MEDIA_MAX_BYTES (2 MiB here).
      [Buffer.alloc(2 * 1024 * 1024 + 1, 7), 'image/png', 413, 'PAYLOAD_TOO_LARGE'],
      [Buffer.alloc(0), 'image/png', 422, 'MEDIA_UNREADABLE'],
    ];
    for (const [bytes, type, status, code] of cases) {
      const res = await upload(bytes, owner.token, type);
      expect([res.status, res.body.error.code], code).toEqual([status, code]);
      expect(res.body.error.message).toMatch(/\w/);
    }
    // JSON is not a file; a name too long is refused by the rules of both doors.
    const json = await t.api('POST', '/api/merchant/media', { token: owner.token, body: { url: 'https://img.test/a.png' } });
    expect([json.status, json.body.error.code]).toEqual([415, 'MEDIA_TYPE_UNSUPPORTED']);
    const longName = await upload(await freshPng(20, 20), owner.token, 'image/png', `?filename=${'n'.repeat(201)}`);
    expect([longName.status, longName.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await rowCount()).toBe(rows);
    expect(await filesInStore()).toBe(files);
  });

  it("lets a shop's catalog staff and the platform's content staff upload, and no one else", async () => {
    const bytes = await freshPng(50, 50);
    const catalog = await newMember(t, shop.id, ShopRole.Catalog);
    const finance = await newMember(t, shop.id, ShopRole.Finance);
    const customer = await newCustomer(t);
    const content = await newStaff(t, PlatformRole.Content);
    const support = await newStaff(t, PlatformRole.Support);
    expect((await upload(bytes, catalog.token)).status).toBe(201);
    for (const user of [finance, customer, support, content]) expect((await upload(bytes, user.token)).status).toBe(403);
    expect((await t.api('POST', '/api/merchant/media', { raw: bytes, headers: { 'content-type': 'image/png' } })).status).toBe(401);
    const platform = await upload(bytes, content.token, 'image/png', '', '/api/admin/media');
    expect([platform.status, platform.body.shop_id]).toEqual([201, null]);
    for (const user of [owner, customer, support]) expect((await upload(bytes, user.token, 'image/png', '', '/api/admin/media')).status).toBe(403);
    // The platform's library and the shop's are apart.
    const platformList = await t.api('GET', '/api/admin/media', { token: content.token });
    expect(platformList.body.items.map((a: { id: number }) => a.id)).toContain(platform.body.id);
    expect(platformList.body.items.every((a: { shop_id: number | null }) => a.shop_id === null)).toBe(true);
    expect((await t.api('GET', '/api/admin/media', { token: owner.token })).status).toBe(403);
  });

  it('makes one picture of the same file sent eight times at once', async () => {
    const bytes = await freshPng(700, 300);
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(bytes, owner.token)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const [{ n }] = await t.sql<{ n: string }>('select count(*) as n from media_asset where id = ? or (shop_id = ? and width = 700 and height = 300)', [answers[0].body.id, shop.id]);
    expect(Number(n)).toBe(1);
  });

  it('puts an uploaded picture on a product', async () => {
    const category = await newCategory(t);
    const asset = (await upload(await freshPng(800, 800), owner.token)).body;
    const product = await t.api('PUT', '/api/merchant/products', {
      token: owner.token,
      body: { name: 'Kettle', description: 'Boils', image_url: asset.url, category_id: category.id, skus: [{ name: 'One', price: 2500, stock: 3 }] },
    });
    expect(product.status).toBe(201);
    expect(product.body.image_url).toBe(asset.url);
  });
});

describe('the thumbnails in the store', () => {
  /** A store in memory that counts its calls, and can fail the widest put (a process stopped mid-way). */
  function countingStore() {
    const objects = new Map<string, Buffer>();
    const calls = { has: 0, put: 0 };
    let failWidest = false;
    const store: MediaStore = {
      put: async (key, body) => {
        calls.put++;
        if (failWidest && key.endsWith('/1280.webp')) throw new Error('stopped');
        objects.set(key, body);
      },
      get: async (key) => objects.get(key) ?? null,
      has: async (key) => (calls.has++, objects.has(key)),
    };
    return { store, objects, calls, failWidest: (on: boolean) => (failWidest = on) };
  }

  it('are looked up by one key when the same picture comes again, and made again when a stopped upload left the set short', async () => {
    const { store, objects, calls, failWidest } = countingStore();
    const bytes = await freshPng();
    // Stopped before the widest was put: the smaller three are there, the set is not whole.
    failWidest(true);
    await expect(keepPicture(store, bytes)).rejects.toThrow();
    expect([...objects.keys()].map((k) => k.split('/')[1]).sort()).toEqual(['160.webp', '320.webp', '640.webp']);
    failWidest(false);
    const kept = await keepPicture(store, bytes);
    expect([...objects.keys()].filter((k) => k.startsWith(kept.digest)).length).toBe(4);
    // Sent again: one look at the store (the widest, put last), nothing put.
    calls.has = 0;
    calls.put = 0;
    await keepPicture(store, bytes);
    expect(calls).toEqual({ has: 1, put: 0 });
  });
});

describe('uploads over GraphQL', () => {
  it('takes a file in a multipart request, as the GraphQL multipart request specification says', async () => {
    const bytes = await freshPng(320, 200);
    const res = await gqlUpload(UPLOAD_SHOP, bytes, owner.token, { filename: 'mug.png' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.uploadShopMedia.userErrors).toEqual([]);
    const asset = res.body.data.uploadShopMedia.asset;
    expect(asset).toMatchObject({ shopId: shop.id, filename: 'mug.png', format: 'png', width: 320, height: 200 });
    // The same file over REST is the same picture: one service method behind both doors.
    expect((await upload(bytes, owner.token)).body.id).toBe(asset.id);
    const list = await t.gql('{ shopMedia(pageSize: 100) { total items { id url } } }', {}, owner.token);
    expect(list.data.shopMedia.items.map((a: { id: number }) => a.id)).toContain(asset.id);
  });

  it('answers bad files as user errors and bad requests as errors, never a 500', async () => {
    const rows = await rowCount();
    const notPicture = await gqlUpload(UPLOAD_SHOP, Buffer.from('plain text'), owner.token);
    expect(notPicture.body.data.uploadShopMedia.userErrors.map((e: { code: string }) => e.code)).toEqual(['MEDIA_UNREADABLE']);
    // An Upload written inline, or sent as JSON, is not a file.
    const inline = await t.gql('mutation { uploadShopMedia(input: { file: "aGVsbG8=" }) { asset { id } } }', {}, owner.token);
    expect(inline.status).toBe(400);
    expect(inline.errors![0].message).toMatch(/multipart/);
    const asJson = await t.gql(UPLOAD_SHOP, { input: { file: { filename: 'x.png' } } }, owner.token);
    expect(asJson.status).toBe(400);
    // Without Apollo's preflight header a multipart request is refused (no form of another site can send it).
    expect((await gqlUpload(UPLOAD_SHOP, await freshPng(30, 30), owner.token, { preflight: false })).status).toBe(400);
    // A map that names no file, or a path that leads nowhere.
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: UPLOAD_SHOP, variables: { input: { file: null } } }));
    form.append('map', JSON.stringify({ 0: ['variables.input.nothing'] }));
    form.append('0', new Blob([new Uint8Array(await freshPng(30, 30))]), 'a.png');
    const nowhere = await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'apollo-require-preflight': '1' }, body: form });
    expect(nowhere.status).toBe(400);
    expect(((await nowhere.json()) as any).error.code).toBe('BAD_REQUEST');
    const customer = await newCustomer(t);
    const refused = await gqlUpload(UPLOAD_SHOP, await freshPng(30, 30), customer.token);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await rowCount()).toBe(rows);
  });
});

describe('an S3-compatible store', () => {
  let s3: S3StandIn;
  let app: TestApp;
  let member: TestUser;
  beforeAll(async () => {
    s3 = await startS3StandIn();
    const media = loadConfig({
      NODE_ENV: 'test', MEDIA_STORE: 's3', MEDIA_S3_BUCKET: s3.bucket, MEDIA_S3_REGION: s3.region, MEDIA_S3_ENDPOINT: s3.endpoint,
      MEDIA_S3_ACCESS_KEY_ID: s3.credentials.accessKeyId, MEDIA_S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    }).media;
    app = await startTestApp({ media }, { database: t.dbName });
    member = await newOperator(app, shop.id);
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  it('keeps the thumbnails in the bucket through the AWS SDK, signed, and serves them from there', async () => {
    const bytes = await freshPng(500, 500);
    const res = await app.api('POST', '/api/merchant/media', { token: member.token, raw: bytes, headers: { 'content-type': 'image/png' } });
    expect(res.status).toBe(201);
    const digest = /\/media\/([0-9a-f]{64})\//.exec(res.body.url)![1];
    expect([...s3.objects.keys()].filter((k) => k.includes(digest)).sort()).toEqual([160, 1280, 320, 640].map((w) => `media/${digest}/${w}.webp`).sort());
    const object = s3.objects.get(`media/${digest}/640.webp`)!;
    expect([object.contentType, object.cacheControl]).toEqual(['image/webp', 'public, max-age=31536000, immutable']);
    expect(s3.refusedSignatures).toBe(0);
    const served = await fetch(app.baseUrl + res.body.url);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect(Buffer.from(await served.arrayBuffer()).equals(object.body)).toBe(true);
    expect((await fetch(`${app.baseUrl}/media/${'0'.repeat(64)}/640.webp`)).status).toBe(404);
  });

  it('answers 503 and keeps no row when the bucket refuses the key or cannot be reached', async () => {
    const rows = await rowCount();
    const wrongKey = await startTestApp(
      { media: { maxBytes: 1024 * 1024, store: { kind: 's3', bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, credentials: { accessKeyId: s3.credentials.accessKeyId, secretAccessKey: 'not-the-secret' } } } },
      { database: t.dbName },
    );
    try {
      const refused = await wrongKey.api('POST', '/api/merchant/media', { token: member.token, raw: await freshPng(60, 60), headers: { 'content-type': 'image/png' } });
      expect([refused.status, refused.body.error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(s3.refusedSignatures).toBeGreaterThan(0);
    } finally {
      await wrongKey.close();
    }
    await s3.close();
    const gone = await app.api('POST', '/api/merchant/media', { token: member.token, raw: await freshPng(60, 60), headers: { 'content-type': 'image/png' } });
    expect([gone.status, gone.body.error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(await rowCount()).toBe(rows);
  });
});
