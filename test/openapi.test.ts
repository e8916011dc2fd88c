import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { normalizeRoute as normalize, servedRoutes } from './support/served-routes.js';
import { openApiJson } from '../src/rest/openapi/document.js';
import { expectDocumentedAnswer } from './support/contract.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin } from './support/fixtures.js';

const document = () => JSON.parse(openApiJson()) as { paths: Record<string, Record<string, unknown>> };

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(document() as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('equals the committed openapi.json (run `npm run openapi:print` after changing a route)', async () => {
    const committed = await readFile(new URL('../openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(openApiJson());
  });

  it('documents every route Express serves under /api, and routes every documented operation', () => {
    const documented = Object.entries(document().paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.map(normalize).sort()).toEqual(servedRoutes().map(normalize).sort());
  });

  it('is served at /api/openapi.json', async () => {
    const res = await fetch(`${t.baseUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe(openApiJson());
  });

  it('fails an answer the document does not describe', () => {
    const product = { id: 1, name: 'A', status: 'published', price_from: 100, shop: { id: 1, slug: 's', name: 'S' }, category_id: 1, brand_id: null, created_at: '2026-11-25T09:00:00.000Z', updated_at: '2026-11-25T09:00:00.000Z', sold_count: 0 };
    const page = { items: [product], page: 1, page_size: 20, total: 1 };
    expect(() => expectDocumentedAnswer('GET', '/api/products?page=1', 200, page)).not.toThrow();
    // A field the document lacks, a missing one, a wrong type, a camelCase key.
    expect(() => expectDocumentedAnswer('GET', '/api/products', 200, { ...page, items: [{ ...product, secret: 1 }] })).toThrow(/does not fit/);
    expect(() => expectDocumentedAnswer('GET', '/api/products', 200, { ...page, total: undefined })).toThrow(/does not fit/);
    expect(() => expectDocumentedAnswer('GET', '/api/products', 200, { ...page, items: [{ ...product, created_at: '2026-11-25 09:00' }] })).toThrow(/does not fit/);
    expect(() => expectDocumentedAnswer('GET', '/api/products', 200, { ...page, pageSize: 20, page_size: undefined })).toThrow(/does not fit/);
    // A status the operation does not answer, an error code it does not give, an error off the shape.
    expect(() => expectDocumentedAnswer('GET', '/api/products', 201, page)).toThrow(/not documented/);
    expect(() => expectDocumentedAnswer('GET', '/api/products', 404, { error: { code: 'NOT_FOUND', message: 'x' } })).toThrow(/not documented/);
    expect(() => expectDocumentedAnswer('GET', '/api/products/1', 404, { error: { code: 'NOT_FOUND', message: 'x' } })).not.toThrow();
    expect(() => expectDocumentedAnswer('GET', '/api/products/1', 404, { error: { code: 'GONE', message: 'x' } })).toThrow(/does not fit/);
    expect(() => expectDocumentedAnswer('GET', '/api/products/1', 404, { code: 'NOT_FOUND' })).toThrow(/does not fit/);
    // An operation the document lacks; the router's own refusals of unknown routes and methods.
    expect(() => expectDocumentedAnswer('GET', '/api/secret', 200, {})).toThrow(/no such operation/);
    expect(() => expectDocumentedAnswer('GET', '/api/secret', 404, { error: { code: 'ROUTE_NOT_FOUND', message: 'x' } })).not.toThrow();
    expect(() => expectDocumentedAnswer('DELETE', '/api/products', 200, {})).toThrow(/no such operation/);
    expect(() => expectDocumentedAnswer('DELETE', '/api/products', 405, { error: { code: 'METHOD_NOT_ALLOWED', message: 'x', details: { allowed: ['GET', 'HEAD'] } } })).not.toThrow();
    // 204 has no body.
    expect(() => expectDocumentedAnswer('POST', '/api/auth/logout', 204, undefined)).not.toThrow();
  });

  it('fails an answer without the headers the document promises, or an error without its facts', () => {
    const id = new Headers({ 'x-request-id': 'req-1', 'x-trace-id': '4bf92f3577b34da6a3ce929d0e0e4736' });
    const products = { items: [], page: 1, page_size: 20, total: 0 };
    expect(() => expectDocumentedAnswer('GET', '/api/products', 200, products, id)).not.toThrow();
    expect(() => expectDocumentedAnswer('GET', '/api/products', 200, products, new Headers())).toThrow(/X-Request-Id/);
    const limited = { error: { code: 'RATE_LIMITED', message: 'x', details: { retry_after_seconds: 3 } } };
    expect(() => expectDocumentedAnswer('POST', '/api/auth/login', 429, limited, new Headers({ 'x-request-id': 'r', 'x-trace-id': '4bf92f3577b34da6a3ce929d0e0e4736', 'retry-after': '3' }))).not.toThrow();
    expect(() => expectDocumentedAnswer('POST', '/api/auth/login', 429, limited, id)).toThrow(/Retry-After/);
    const wrongMethod = { error: { code: 'METHOD_NOT_ALLOWED', message: 'x', details: { allowed: ['GET', 'HEAD'] } } };
    expect(() => expectDocumentedAnswer('DELETE', '/api/products', 405, wrongMethod, new Headers({ 'x-request-id': 'r', 'x-trace-id': '4bf92f3577b34da6a3ce929d0e0e4736', allow: 'GET, HEAD' }))).not.toThrow();
    expect(() => expectDocumentedAnswer('DELETE', '/api/products', 405, wrongMethod, id)).toThrow(/Allow/);
    // A VALIDATION_FAILED without the bad fields; a code no operation answers.
    expect(() => expectDocumentedAnswer('GET', '/api/products', 400, { error: { code: 'VALIDATION_FAILED', message: 'x' } }, id)).toThrow(/problems/);
    expect(() => expectDocumentedAnswer('GET', '/api/products', 400, { error: { code: 'VALIDATION_FAILED', message: 'x', details: { problems: [{ field: 'q', message: 'y' }] } } }, id)).not.toThrow();
    expect(() => expectDocumentedAnswer('GET', '/api/products', 400, { error: { code: 'INSUFFICIENT_STOCK', message: 'x' } }, id)).toThrow(/does not fit/);
  });

  it("lists checkout's lost races among its 409s, each code its own object told apart by `code`", () => {
    const checkout = (document() as unknown as { paths: Record<string, Record<string, { responses: Record<string, any> }>> }).paths['/api/checkout'].post;
    const conflict = checkout.responses['409'];
    expect(conflict.$ref).toBeUndefined();
    const error = conflict.content['application/json'].schema.properties.error;
    const codes = ['CART_CHANGED', 'CONFLICT', 'FLASH_SALE_LIMIT_CHANGED', 'FLASH_SALE_STOCK_CHANGED', 'GROUP_ALREADY_JOINED', 'RESOURCE_LOCKED'];
    expect(error.discriminator.propertyName).toBe('code');
    expect(Object.keys(error.discriminator.mapping)).toEqual(codes);
    expect(error.oneOf).toEqual(codes.map((code) => ({ $ref: error.discriminator.mapping[code] })));
    const schemas = (document() as unknown as { components: { schemas: Record<string, any> } }).components.schemas;
    const cartChanged = schemas[String(error.discriminator.mapping.CART_CHANGED).split('/').pop()!];
    expect(cartChanged.properties.code.const).toBe('CART_CHANGED');
    expect(cartChanged.required).toEqual(['code', 'message', 'details']);
    expect(cartChanged.properties.details).toMatchObject({ required: ['customer_id'], additionalProperties: false, properties: { customer_id: { type: 'integer' } } });
  });

  it("fails an error answer with a key its code does not declare, or without one its code requires", () => {
    const body = (code: string, details?: object) => ({ error: { code, message: 'x', ...(details ? { details } : {}) } });
    const stock = { sku_id: 1, requested: 3, available: 2 };
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 422, body('INSUFFICIENT_STOCK', stock))).not.toThrow();
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 422, body('INSUFFICIENT_STOCK', { ...stock, coupon_id: 4 }))).toThrow(/INSUFFICIENT_STOCK object: \/details must NOT have additional properties/);
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 422, body('INSUFFICIENT_STOCK', { ...stock, requested: '3' }))).toThrow(/\/details\/requested must be integer/);
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 409, body('CART_CHANGED'))).toThrow(/CART_CHANGED object: .* must have required property 'details'/);
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 409, body('CART_CHANGED', {}))).toThrow(/must have required property 'customer_id'/);
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 409, body('CART_CHANGED', { customer_id: 7 }))).not.toThrow();
    // A code without details answers none; a code the operation does not list is named as such.
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 422, body('CART_EMPTY'))).not.toThrow();
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 422, body('CART_EMPTY', { id: 1 }))).toThrow(/CART_EMPTY object: .*additional properties/);
    expect(() => expectDocumentedAnswer('POST', '/api/checkout', 422, body('ADDRESS_BOOK_FULL', { limit: 20 }))).toThrow(/ADDRESS_BOOK_FULL is not one this answer documents/);
    expect(() => expectDocumentedAnswer('GET', '/api/products/1', 404, body('NOT_FOUND', { id: 1 }))).not.toThrow();
    expect(() => expectDocumentedAnswer('GET', '/api/products/1', 404, body('NOT_FOUND', { coupon_id: 1 }))).toThrow(/additional properties/);
  });

  it('states the webhook URL by the pattern the server applies: what it refuses by shape, the document refuses', async () => {
    const admin = await newAdmin(t);
    const paths = (document() as unknown as { paths: Record<string, Record<string, any>> }).paths;
    const url = paths['/api/admin/webhooks'].post.requestBody.content['application/json'].schema.properties.url;
    expect(url).toMatchObject({ type: 'string', format: 'uri', pattern: expect.any(String) });
    const pattern = new RegExp(url.pattern);
    const refused = ['ftp://hooks.example.com/h', 'https://user:pw@hooks.example.com/h', 'https://hooks.example.com/h#part', 'hooks.example.com/h', 'https:///h', 'https://hooks.example.com/a b'];
    const shaped = ['https://hooks.example.com/a?b=c', 'https://[2001:4860:4860::8888]/h', 'HTTPS://hooks.example.com:8443/h'];
    for (const candidate of [...refused, ...shaped]) {
      const res = await t.api('POST', '/api/admin/webhooks', { token: admin.token, body: { url: candidate, event_types: ['stock.low'] } });
      const byShape = res.status === 400 && res.body.error.code === 'VALIDATION_FAILED';
      expect([candidate, pattern.test(candidate), byShape]).toEqual([candidate, shaped.includes(candidate), refused.includes(candidate)]);
    }
    expect(await t.sql('select id from webhook_endpoint where url like ?', ['%hooks.example.com%'])).toEqual([]);
  });

  it("states the event feed's `types` as a comma-separated array of the event types, as the server reads it", async () => {
    const admin = await newAdmin(t);
    const types = (document() as unknown as { paths: Record<string, Record<string, any>> }).paths['/api/events'].get.parameters.find((p: { name: string }) => p.name === 'types');
    expect(types).toMatchObject({ in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string', enum: expect.arrayContaining(['order.paid', 'stock.low']) } } });
    expect((await t.api('GET', '/api/events?types=order.paid,stock.low', { token: admin.token })).status).toBe(200);
    const unknown = await t.api('GET', '/api/events?types=order.paid,order.nope', { token: admin.token });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
