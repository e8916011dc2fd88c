import http from 'node:http';
import net from 'node:net';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';
import { ADDRESS, GRAPHQL_ADDRESS } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ bodyLimitBytes: 2048 });
});
afterAll(() => t.close());

/** Every failure, whoever detects it, answers `{"error": {code, message, details?}}`. */
function expectErrorShape(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
  expect(Object.keys(res.body.error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
}

describe('one error shape', () => {
  it('validation error: 400 VALIDATION_FAILED', async () => {
    expectErrorShape(await t.api('POST', '/api/auth/login', { body: { email: 42 } }), 400, 'VALIDATION_FAILED');
  });

  it('malformed JSON: 400 MALFORMED_JSON', async () => {
    expectErrorShape(await t.api('POST', '/api/auth/login', { raw: '{"email": ' }), 400, 'MALFORMED_JSON');
  });

  it('unknown route: 404 ROUTE_NOT_FOUND', async () => {
    expectErrorShape(await t.api('GET', '/api/no-such-thing'), 404, 'ROUTE_NOT_FOUND');
    expectErrorShape(await t.api('GET', '/elsewhere'), 404, 'ROUTE_NOT_FOUND');
  });

  it('wrong method: 405 METHOD_NOT_ALLOWED naming the allowed ones, in details and in Allow', async () => {
    const res = await t.api('DELETE', '/api/auth/login');
    expectErrorShape(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.body.error.details.allowed).toEqual(['POST']);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('body over the limit: 413 PAYLOAD_TOO_LARGE', async () => {
    expectErrorShape(await t.api('POST', '/api/auth/login', { body: { email: 'x'.repeat(5000), password: 'y' } }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('unauthenticated: 401 UNAUTHENTICATED', async () => {
    expectErrorShape(await t.api('GET', '/api/me'), 401, 'UNAUTHENTICATED');
  });

  it('conflict: 409 EMAIL_TAKEN', async () => {
    const user = await newCustomer(t);
    expectErrorShape(await t.api('POST', '/api/auth/register', { body: { email: user.email, password: 'long enough pw', display_name: 'X' } }), 409, 'EMAIL_TAKEN');
  });

  it('invalid token: 401 TOKEN_INVALID', async () => {
    expectErrorShape(await t.api('GET', '/api/me', { token: 'not-a-token' }), 401, 'TOKEN_INVALID');
  });

  it('carries a request id header, echoing a sane incoming one', async () => {
    const res = await t.api('GET', '/api/me', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });

  it('unexpected failure: 500 INTERNAL without internals', async () => {
    // Break the table behind /api/me for this database only, then restore it.
    const user = await newCustomer(t);
    await t.sql('alter table app_user rename column display_name to display_name_gone');
    try {
      const res = await t.api('GET', '/api/me', { token: user.token });
      expectErrorShape(res, 500, 'INTERNAL');
      expect(JSON.stringify(res.body)).not.toMatch(/display_name|column|select|stack/i);
    } finally {
      await t.sql('alter table app_user rename column display_name_gone to display_name');
    }
  });

  it('GraphQL: an unexpected failure in a resolver says INTERNAL like REST, without internals', async () => {
    const user = await newCustomer(t);
    await t.sql('alter table app_user rename column display_name to display_name_gone');
    try {
      const res = await t.gql('{ me { displayName } }', undefined, user.token);
      expect(res.errors).toEqual([expect.objectContaining({ message: 'Something went wrong on our side', path: ['me'], extensions: { code: 'INTERNAL', status: 500 } })]);
      expect(JSON.stringify(res.errors)).not.toMatch(/display_name|app_user|select |stack|\/src\//i);
    } finally {
      await t.sql('alter table app_user rename column display_name_gone to display_name');
    }
  });

  it('GraphQL: a value its scalar cannot serialize says INTERNAL, not Apollo\u2019s INTERNAL_SERVER_ERROR', async () => {
    // PostgreSQL keeps 'infinity' in a timestamptz; as a JavaScript Date it is invalid, and the
    // DateTimeISO scalar refuses it with a GraphQLError of its own (no code).
    const user = await newCustomer(t);
    await t.sql(`update app_user set created_at = 'infinity' where id = ?`, [user.id]);
    try {
      const res = await t.gql('{ me { id createdAt } }', undefined, user.token);
      expect(res.errors).toEqual([expect.objectContaining({ message: 'Something went wrong on our side', path: ['me', 'createdAt'], extensions: { code: 'INTERNAL', status: 500 } })]);
      expect(JSON.stringify(res.errors)).not.toMatch(/INTERNAL_SERVER_ERROR|stacktrace|Date|\/src\//);
    } finally {
      await t.sql('update app_user set created_at = now() where id = ?', [user.id]);
    }
  });

  it('GraphQL: a refused input is a typed user error with the same code, one per problem', async () => {
    const res = await t.gql(`mutation { register(input: { email: "bad", password: "x", displayName: "" }) { session { token } userErrors { code field message } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.register.session).toBeNull();
    expect(res.data.register.userErrors.map((e: { code: string; field: string[] }) => [e.code, e.field.join('.')]).sort()).toEqual([
      ['VALIDATION_FAILED', 'input.displayName'], ['VALIDATION_FAILED', 'input.email'], ['VALIDATION_FAILED', 'input.password'],
    ]);
  });

  it('GraphQL errors about the caller stay top-level with the same code in extensions.code', async () => {
    const res = await t.gql(`mutation { cancelOrder(input: { orderId: 1 }) { order { id } userErrors { code } } }`);
    expect(res.data).toBeNull();
    expect(res.errors?.[0].extensions).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
  });
});

describe('what Node’s HTTP parser refuses, in the same shape', () => {
  /** A raw request on its own connection: the status line, headers and body of the answer. */
  function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () => socket.end(request));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head, body = ''] = text.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body });
      });
    });
  }

  it('headers too large: 431 HEADERS_TOO_LARGE', async () => {
    const res = await raw(`GET /api/brands HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String), details: { limit_bytes: http.maxHeaderSize } } });
  });

  it('not HTTP: 400 BAD_REQUEST', async () => {
    const res = await raw('HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) } });
  });
});

describe('ids', () => {
  it('are refused with the bounds the OpenAPI document gives, whatever is wrong with them', async () => {
    const doc = (await (await fetch(`${t.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters: { name: string; schema: unknown }[] } }>;
    };
    expect(doc.paths['/api/products/{id}'].get.parameters[0].schema).toEqual({ type: 'integer', minimum: 1, maximum: 2147483647 });
    const brand = doc.paths['/api/products'].get.parameters.find((p) => p.name === 'brand_id')?.schema;
    expect(brand).toEqual({ type: 'integer', minimum: 1, maximum: 2147483647 });
    for (const bad of ['0', '2147483648', '99999999999', 'abc', '1.5']) {
      const res = await t.api('GET', `/api/products/${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('must be a whole number from 1 to 2147483647');
      const listed = await t.api('GET', `/api/products?brand_id=${bad}`);
      expect(listed.body.error.details.problems).toEqual([{ field: 'brand_id', message: 'must be a whole number from 1 to 2147483647' }]);
    }
  });
});

describe('health', () => {
  it('GET /healthz and /readyz answer 200 while the database is up', async () => {
    expect((await t.api('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.api('GET', '/readyz')).status).toBe(200);
  });
});

describe('problems named in each door\u2019s own case', () => {
  const fields = (res: { body: any }) => res.body.error.details.problems.map((p: { field: string }) => p.field);

  it('REST names a nested body field in snake_case, in the problems and the message', async () => {
    const customer = await newCustomer(t);
    const res = await t.api('POST', '/api/checkout', { token: customer.token, body: { shipping_address: { ...ADDRESS, recipient: '' } } });
    expectErrorShape(res, 400, 'VALIDATION_FAILED');
    expect(fields(res)).toEqual(['shipping_address.recipient']);
    expect(res.body.error.message).toMatch(/^shipping_address\.recipient: /);
    const unknown = await t.api('POST', '/api/checkout', { token: customer.token, body: { shipping_address: { ...ADDRESS, post_code: '200000' } } });
    expect(unknown.body.error.details.problems).toEqual([{ field: 'shipping_address.post_code', message: 'Unknown field' }]);
  });

  it('REST names query parameters in snake_case, and an unknown one as it was sent', async () => {
    const res = await t.api('GET', '/api/products?page_size=1000&brand_id=abc');
    expectErrorShape(res, 400, 'VALIDATION_FAILED');
    expect(fields(res).sort()).toEqual(['brand_id', 'page_size']);
    const unknown = await t.api('GET', '/api/products?categoryId=3&page_size=2');
    expect(unknown.body.error.details.problems).toEqual([{ field: 'categoryId', message: 'Unknown query parameter' }]);
  });

  it('GraphQL keeps camelCase for the same problem', async () => {
    const customer = await newCustomer(t);
    const res = await t.gql(
      'mutation($a: ShippingAddressInput!) { checkout(input: { shippingAddress: $a }) { orders { id } userErrors { code field } } }',
      { a: { ...GRAPHQL_ADDRESS, recipient: '' } },
      customer.token,
    );
    expect(res.data.checkout).toEqual({ orders: null, userErrors: [{ code: 'VALIDATION_FAILED', field: ['input', 'shippingAddress', 'recipient'] }] });
  });
});
