import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema, getNamedType, isEnumType, isInputObjectType, isLeafType, isListType, isNonNullType,
  type GraphQLField, type GraphQLInputType, type GraphQLObjectType,
} from 'graphql';
import { apiRouter } from '../src/rest/api.js';
import { loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator } from './support/fixtures.js';
import { shopWithProduct } from './support/shopping.js';
import { expectDocumentedAnswer } from './support/contract.js';

/**
 * Property-based fuzzing of both doors: generated bodies, query strings and path segments (NUL, lone
 * surrogates, deep nesting, huge numbers, wrong types, prototype keys) at every REST route (read from
 * the router itself) and at every GraphQL query and mutation (read from the committed schema).
 * Whatever arrives, the answer is never a 5xx, and every error has the common shape; every REST answer
 * is one the OpenAPI document describes (an error's code among those its operation lists).
 */
let t: TestApp;
let tokens: (string | null)[];
beforeAll(async () => {
  // Counts high enough that fuzzed logins keep reaching validation instead of 429.
  t = await startTestApp({
    authThrottle: { ...loadConfig({}).authThrottle, windowSeconds: 60, loginPerAccount: 1_000_000, loginPerIp: 1_000_000, registerPerIp: 1_000_000, registerPerEmail: 1_000_000 },
  });
  const { shop } = await shopWithProduct(t);
  tokens = [null, (await newCustomer(t, { available: 100_000, points: 1000 })).token, (await newOperator(t, shop.id)).token, (await newAdmin(t)).token];
});
afterAll(() => t.close());

const schema = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every input field and argument name of the schema, as REST spells it: keys a real body would have. */
const FIELD_NAMES = [
  ...new Set(
    Object.values(schema.getTypeMap()).flatMap((type) => (isInputObjectType(type) ? Object.keys(type.getFields()) : [])).map(snake),
  ),
];

// --- generated input --------------------------------------------------------------------------

const NASTY_TEXT = [
  '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', '__proto__', 'constructor', 'prototype', '', ' ', '-1', '0',
  '1e309', '0x1f', '9'.repeat(40), 'NaN', 'true', 'null', '{}', "'; drop table app_user; --", '../../etc/passwd',
  '\u202e', '\u{1F600}', 'a'.repeat(3000), 'CN-BJ', 'a@b.test', 'https://x.test/a.png',
];
const text = fc.oneof(fc.constantFrom(...NASTY_TEXT), fc.string({ unit: 'binary', maxLength: 16 }), fc.string({ maxLength: 12 }));
const number = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 0.5, -0.000001),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const key = fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.constantFrom('__proto__', 'constructor', 'prototype', 'a\u0000', 'id'), text);

/** JSON as raw text, so a `__proto__` key is sent as the key it is. */
type Json = null | boolean | number | string | Json[] | { entries: [string, Json][] };
const { json } = fc.letrec<{ json: Json; array: Json[]; object: { entries: [string, Json][] } }>((tie) => ({
  json: fc.oneof({ depthSize: 'small', maxDepth: 4 }, text, number, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc.record({ entries: fc.array(fc.tuple(key, tie('json')), { maxLength: 6 }) }),
}));
const serialize = (value: Json): string =>
  Array.isArray(value)
    ? `[${value.map(serialize).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`).join(',')}}`
      : JSON.stringify(value);

/**
 * Values shaped like a schema input type (right keys, right kinds) whose strings are often hostile:
 * only a body that passes every other check carries a NUL or a lone surrogate as far as the database.
 * Now and then any value takes a typed one's place (a wrong type).
 */
const PLAUSIBLE_TEXT = ['a@b.test', 'long enough pw', 'Name', 'CN-BJ', 'SF', 'https://img.test/a.png', '2026-11-25T00:00:00.000Z', '+86 138 0000 0000'];
const typedText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PLAUSIBLE_TEXT) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...PLAUSIBLE_TEXT), fc.constantFrom('\u0000', '\ud800', '\udfff')).map(([a, b]) => a + b) },
);
const typedValues = new Map<string, fc.Arbitrary<Json>>();
function typedValue(type: GraphQLInputType, keyCase: (name: string) => string, depth = 0): fc.Arbitrary<Json> {
  if (isNonNullType(type)) return typedValue(type.ofType, keyCase, depth);
  let typed: fc.Arbitrary<Json>;
  if (isListType(type)) typed = fc.array(typedValue(type.ofType, keyCase, depth + 1), { maxLength: 3 });
  else if (isEnumType(type)) typed = fc.constantFrom(...type.getValues().map((v) => v.name));
  else if (isInputObjectType(type)) {
    const memo = `${type.name}:${keyCase('aB')}:${depth}`;
    const fields = Object.values(type.getFields());
    typed = typedValues.get(memo) ?? (depth > 3 ? fc.constant(null) : fc.tuple(
      ...fields.map((field) => fc.option(typedValue(field.type, keyCase, depth + 1), { nil: undefined, freq: 5 })),
    ).map((values) => ({ entries: fields.flatMap((field, i): [string, Json][] => (values[i] === undefined ? [] : [[keyCase(field.name), values[i] as Json]])) })));
    typedValues.set(memo, typed);
  } else if (type.name === 'Int') typed = fc.oneof(fc.integer({ min: -2, max: 100 }), number);
  else if (type.name === 'Float') typed = number;
  else if (type.name === 'Boolean') typed = fc.boolean();
  else typed = typedText;
  return fc.oneof({ weight: 9, arbitrary: typed }, { weight: 1, arbitrary: json });
}
const INPUT_TYPES = Object.values(schema.getTypeMap()).filter(isInputObjectType);

const nest = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const RAW_BODIES = [nest(33), nest(3000), '['.repeat(3000) + ']'.repeat(3000), '{"a":', '[', 'garbage', '"text"', '123', 'null', '{"a":"\\u0000"}', '{"a":"\\ud800"}', '{"__proto__":{"x":1}}'];
const body = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...INPUT_TYPES).chain((type) => typedValue(type, snake)).map(serialize) },
  { weight: 3, arbitrary: fc.record({ entries: fc.array(fc.tuple(key, json), { maxLength: 6 }) }).map(serialize) },
  { weight: 2, arbitrary: json.map(serialize) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
);

/** Percent-encodes what can be encoded; a lone surrogate (which cannot) is sent as its raw UTF-8 bytes. */
const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};
const RAW_SEGMENTS = ['%00', '%ED%A0%80', '%E0%A4%A', '%', '%ZZ', '__proto__', '%2e%2e', '2147483648', '99999999999999999999', '1e3', '-1', '0', '1'];
const segment = fc.oneof(fc.constantFrom(...RAW_SEGMENTS), fc.nat({ max: 50 }).map(String), text.map(encode));
const queryString = fc.oneof(
  fc.array(fc.tuple(key, fc.oneof(text, number.map(String))), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')),
  fc.constantFrom('page=%00', 'page_size=1e9', 'a=1&a=2', 'sort=%ED%A0%80', '%=1', 'page=-1&page_size=0', `page=${'9'.repeat(30)}`),
);

// --- checks ----------------------------------------------------------------------------------------

function expectRestAnswer(status: number, text: string, what: string) {
  if (status >= 500) throw new Error(`${what} answered ${status}: ${text}`);
  if (status < 400) return;
  const answer = JSON.parse(text);
  const error = answer?.error;
  const sane = error && typeof error.code === 'string' && /^[A-Z_]+$/.test(error.code) && typeof error.message === 'string'
    && Object.keys(answer).length === 1 && Object.keys(error).every((k) => ['code', 'message', 'details'].includes(k));
  if (!sane) throw new Error(`${what} answered ${status} outside the common error shape: ${text}`);
}

function expectGraphQLAnswer(status: number, text: string, what: string) {
  if (status >= 500) throw new Error(`${what} answered ${status}: ${text}`);
  const answer = JSON.parse(text);
  // Failures of the HTTP request itself (body too deep, malformed) have the REST shape.
  if (answer.error) return expectRestAnswer(status, text, what);
  for (const error of answer.errors ?? []) {
    const code = error?.extensions?.code;
    if (typeof code !== 'string' || code === 'INTERNAL' || typeof error.message !== 'string') {
      throw new Error(`${what} answered an error without a proper code: ${text}`);
    }
  }
  if (!answer.errors && !answer.data) throw new Error(`${what} answered neither data nor errors: ${text}`);
}

interface Sent {
  method: string;
  url: string;
  body?: string;
  token: string | null;
  encoding?: string;
}

async function send(request: Sent): Promise<{ status: number; text: string; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  if (request.encoding) headers['content-encoding'] = request.encoding;
  const res = await fetch(t.baseUrl + request.url, { method: request.method, headers, body: request.body });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

// --- REST ------------------------------------------------------------------------------------------

/** The REST routes as the router holds them: path and methods (405 handlers left out). */
function restRoutes(): { path: string; method: string }[] {
  const router = apiRouter();
  return router.stack.flatMap((layer) => {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    if (!route) return [];
    return Object.keys(route.methods).filter((m) => m !== '_all').map((method) => ({ path: route.path, method: method.toUpperCase() }));
  });
}

const RUNS_PER_ROUTE = 15;
const GRAPHQL_RUNS_PER_OPERATION = 10;

it('answers every REST route without a 5xx and with errors in the common shape', async () => {
  const routes = restRoutes();
  expect(routes.length).toBeGreaterThan(70);
  for (const { path, method } of routes) {
    const params = path.match(/:\w+/g) ?? [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: params.length, maxLength: params.length }),
        fc.option(queryString, { nil: undefined }),
        method === 'GET' || method === 'DELETE' ? fc.constant(undefined) : fc.option(body, { nil: undefined, freq: 8 }),
        fc.constantFrom(...tokens),
        fc.option(fc.constant('gzip'), { nil: undefined, freq: 20 }),
        async (segments, query, raw, token, encoding) => {
          let url = `/api${path}`;
          params.forEach((param, i) => (url = url.replace(param, segments[i])));
          if (query !== undefined) url += `?${query}`;
          const request: Sent = { method, url, body: raw, token, encoding: raw === undefined ? undefined : encoding };
          const { status, text, headers } = await send(request);
          const what = `${method} ${url} ${raw ?? ''}`.slice(0, 500);
          expectRestAnswer(status, text, what);
          try {
            expectDocumentedAnswer(method, url, status, text ? JSON.parse(text) : undefined, headers);
          } catch (error) {
            throw new Error(`${what}: ${(error as Error).message}`);
          }
        },
      ),
      { numRuns: RUNS_PER_ROUTE },
    );
  }
}, 60_000);

// --- GraphQL ---------------------------------------------------------------------------------------

/** A generated value written as a GraphQL literal (object keys that are no GraphQL name are left out). */
const literal = (value: Json): string =>
  Array.isArray(value)
    ? `[${value.map(literal).join(', ')}]`
    : value !== null && typeof value === 'object'
      ? `{${value.entries.filter(([k]) => /^[_A-Za-z]\w*$/.test(k)).map(([k, v]) => `${k}: ${literal(v)}`).join(', ')}}`
      : JSON.stringify(value);

interface Operation {
  name: string;
  /** The document with the given arguments: as variables, or written inline. */
  document(args: [string, Json][], inline: boolean): string;
  args: { name: string; value: fc.Arbitrary<Json> }[];
}

/** One operation per query and mutation field, selecting `__typename` of an object result. */
function operations(): Operation[] {
  const roots: [string, GraphQLObjectType | null | undefined][] = [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]];
  return roots.flatMap(([kind, root]) =>
    Object.values(root?.getFields() ?? {}).map((field: GraphQLField<unknown, unknown>) => {
      const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
      const types = new Map(field.args.map((arg) => [arg.name, String(arg.type)]));
      return {
        name: field.name,
        args: field.args.map((arg) => ({ name: arg.name, value: typedValue(arg.type, (name) => name) })),
        document(args: [string, Json][], inline: boolean) {
          const declarations = inline || args.length === 0 ? '' : `(${args.map(([name]) => `$${name}: ${types.get(name)}`).join(', ')})`;
          const passed = args.map(([name, value]) => `${name}: ${inline ? literal(value) : `$${name}`}`).join(', ');
          return `${kind}${declarations} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
        },
      };
    }),
  );
}

it('answers every GraphQL query and mutation without a 5xx or an INTERNAL error, variables and inline arguments alike', async () => {
  const ops = operations();
  expect(ops.length).toBeGreaterThan(50);
  for (const op of ops) {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...op.args.map((arg) => fc.option(arg.value, { nil: undefined, freq: 8 }))),
        fc.constantFrom(...tokens),
        fc.boolean(),
        async (values, token, inline) => {
          const args = op.args.flatMap(({ name }, i): [string, Json][] => (values[i] === undefined ? [] : [[name, values[i] as Json]]));
          const variables = inline ? '{}' : serialize({ entries: args });
          const raw = `{"query":${JSON.stringify(op.document(args, inline))},"variables":${variables}}`;
          const { status, text } = await send({ method: 'POST', url: '/graphql', body: raw, token });
          expectGraphQLAnswer(status, text, `${op.name} ${raw}`.slice(0, 500));
        },
      ),
      { numRuns: GRAPHQL_RUNS_PER_OPERATION },
    );
  }
}, 60_000);
