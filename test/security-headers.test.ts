import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  // Apollo decides on stack traces from NODE_ENV when it is built: as a developer's shell would have it.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  try {
    t = await startTestApp({ nodeEnv: 'development', graphiql: false });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(t.baseUrl + path, { headers });

describe('security headers', () => {
  it('are on every answer: REST, errors, GraphQL and health', async () => {
    const answers = [
      await get('/api/products'),
      await get('/api/no-such-route'),
      await get('/api/me'),
      await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ currency { code } }"}' }),
      await get('/healthz'),
    ];
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('serve no landing page (Apollo Sandbox from a CDN) and no GraphiQL when GraphiQL is off, even in development', async () => {
    const res = await get('/graphql', { accept: 'text/html' });
    expect(res.headers.get('content-type')).not.toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    const body = await res.text();
    expect(body).not.toMatch(/apollographql|graphiql|<html/i);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('Cache-Control: no-store', () => {
  it('is on every answer to a request with a bearer token, valid or not', async () => {
    const user = await newCustomer(t);
    for (const token of [user.token, 'not-a-token']) {
      for (const path of ['/api/me', '/api/products', '/api/cart']) {
        expect((await get(path, { authorization: `Bearer ${token}` })).headers.get('cache-control')).toBe('no-store');
      }
    }
    const gql = await t.api('POST', '/graphql', { token: user.token, body: { query: '{ me { id } }' } });
    expect(gql.headers.get('cache-control')).toBe('no-store');
  });

  it('is on the answers that hand out a token, over REST and GraphQL', async () => {
    const user = await newCustomer(t);
    const login = await t.api('POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const register = await t.api('POST', '/api/auth/register', { body: { email: 'cache@example.test', password: 'long enough pw', display_name: 'C' } });
    expect(register.status).toBe(201);
    expect(register.headers.get('cache-control')).toBe('no-store');
    const gql = await t.api('POST', '/graphql', { body: { query: `mutation { login(input: { email: "${user.email}", password: "${PASSWORD}" }) { session { token } } }` } });
    expect(gql.body.data.login.session.token).toEqual(expect.any(String));
    expect(gql.headers.get('cache-control')).toBe('no-store');
  });

  it('is left off anonymous reads, which stay cacheable', async () => {
    expect((await get('/api/products')).headers.get('cache-control')).toBeNull();
  });
});

describe('stack traces', () => {
  it('never reach a GraphQL answer, even with NODE_ENV=development', async () => {
    const failures = [
      await t.gql('{ nope '),
      await t.gql('{ nope }'),
      await t.gql('query($id: Int!) { product(id: $id) { id } }', { id: 'x' }),
      await t.gql('{ me { id } }'),
    ];
    for (const res of failures) {
      expect(res.errors?.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.errors)).not.toMatch(/stacktrace|\/src\/|node_modules|    at /);
    }
  });

  it('never reach a REST answer of an unexpected failure', async () => {
    const user = await newCustomer(t);
    await t.sql('alter table app_user rename column display_name to display_name_gone');
    try {
      const res = await t.api('GET', '/api/me', { token: user.token });
      expect(res.status).toBe(500);
      expect(JSON.stringify(res.body)).not.toMatch(/stack|\/src\/|node_modules|    at /);
    } finally {
      await t.sql('alter table app_user rename column display_name_gone to display_name');
    }
  });
});
