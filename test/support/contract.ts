import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../src/rest/openapi/document.js';
import { codeSchemaName } from '../../src/rest/openapi/error-schemas.js';
import type { ErrorCode } from '../../src/error-codes.js';

/**
 * The contract test: every REST answer the suite receives (through `TestApp.api`, and the raw
 * requests of the fuzz and hostile-input tests) must be one the OpenAPI document describes: a
 * documented operation, a documented status, a body that fits its schema (so an error's code is one
 * the operation lists for that status), the headers the document says are always there. The document
 * is built once per test worker (vitest shares one module graph per worker), and each answer's schema
 * compiled when a test first meets it. Nothing of it runs in the server.
 */
interface Operation {
  template: string;
  pattern: RegExp;
  params: number;
  /** Per method, per status: the answer as documented, its body schema compiled when first needed. */
  methods: Map<string, Map<string, Answer>>;
}

interface Answer {
  /** The body's schema; null: no body. */
  schema: unknown;
  validate?: ValidateFunction;
  headers: DocumentedHeader[];
}

interface DocumentedHeader {
  name: string;
  required: boolean;
  schema: { type?: string; pattern?: string };
}

type JsonObject = Record<string, any>;
/** What an answer's headers are read through (fetch's `Headers`). */
type HeaderSource = Pick<Headers, 'get'>;

let operations: Operation[] | undefined;
let errorShape: ValidateFunction | undefined;
/** Each code's own `error` object, compiled when first needed: says why an error answer does not fit. */
const codeShapes = new Map<string, ValidateFunction | null>();
let components: JsonObject | undefined;
let ajv: Ajv2020 | undefined;
let routerAnswers: Map<string, Answer> | undefined;
/** The `webhooks` section's entries by event type: the body's validator and the signature headers. */
let webhooks: Map<string, { validate: ValidateFunction; headers: DocumentedHeader[] }> | undefined;

/** The codes whose answers always list the bad fields in `details.problems`. */
const PROBLEM_CODES = new Set(['VALIDATION_FAILED', 'DESTINATION_INVALID']);

// `#/components/...` inside the document means the document: resolve it against the one schema added in `load`.
const rebase = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, '"$ref":"openapi.json#/components/')) as object;

function answerOf(doc: JsonObject, response: JsonObject): Answer {
  const resolved: JsonObject = response.$ref ? doc.components.responses[String(response.$ref).split('/').pop()!] : response;
  const headers = Object.entries((resolved.headers ?? {}) as Record<string, JsonObject>).map(([name, header]) => {
    const spec: JsonObject = header.$ref ? doc.components.headers[String(header.$ref).split('/').pop()!] : header;
    return { name, required: spec.required === true, schema: spec.schema as DocumentedHeader['schema'] };
  });
  return { schema: resolved.content?.['application/json']?.schema ?? null, headers };
}

function load(): Operation[] {
  const doc = buildOpenApiDocument() as JsonObject;
  components = doc.components as JsonObject;
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi.json', components: doc.components }, 'openapi.json');
  errorShape = ajv.compile(rebase({ $ref: '#/components/schemas/Error' }));
  webhooks = new Map(
    Object.entries((doc.webhooks ?? {}) as Record<string, JsonObject>).map(([type, item]) => [
      type,
      {
        validate: ajv!.compile(rebase(item.post.requestBody.content['application/json'].schema)),
        headers: (item.post.parameters as JsonObject[]).map((p) => ({ name: p.name, required: p.required === true, schema: p.schema })),
      },
    ]),
  );
  routerAnswers = new Map(['ROUTE_NOT_FOUND', 'METHOD_NOT_ALLOWED'].map((code) => [code, answerOf(doc, { $ref: `#/components/responses/${code}` })]));
  const list: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, JsonObject>)) {
    const names: string[] = [];
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
    const methods = new Map<string, Map<string, Answer>>();
    for (const [method, op] of Object.entries(item)) {
      const statuses = new Map<string, Answer>();
      for (const [status, response] of Object.entries(op.responses as Record<string, JsonObject>)) statuses.set(status, answerOf(doc, response));
      methods.set(method.toUpperCase(), statuses);
    }
    list.push({ template, pattern: new RegExp(`^${source}/?$`, "i"), params: names.length, methods });
  }
  // A literal segment wins over a parameter (`/products/facets` before `/products/{id}`), as Express's order does.
  return list.sort((a, b) => a.params - b.params);
}

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '$'} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''}`).join('; ');

/** The documented headers of an answer: there when required, and of their documented form when there. */
function expectDocumentedHeaders(where: string, answer: Answer, headers: HeaderSource | undefined): void {
  if (!headers) return;
  for (const { name, required, schema } of answer.headers) {
    const value = headers.get(name);
    if (value === null) {
      if (required) throw new Error(`${where}: the answer lacks the ${name} header the document promises`);
      continue;
    }
    if (schema.type === 'integer' && !/^\d+$/.test(value)) throw new Error(`${where}: ${name} is ${JSON.stringify(value)}, not a whole number`);
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) throw new Error(`${where}: ${name} is ${JSON.stringify(value)}, not /${schema.pattern}/`);
  }
}

/** Rules of error answers the schema cannot say: the bad fields listed, a 405's `Allow` the same methods as its details. */
function expectErrorRules(where: string, status: number, body: unknown, headers: HeaderSource | undefined): void {
  const error = (body as JsonObject | undefined)?.error as JsonObject | undefined;
  if (!error) return;
  if (PROBLEM_CODES.has(error.code) && !(Array.isArray(error.details?.problems) && error.details.problems.length > 0)) {
    throw new Error(`${where}: ${error.code} without details.problems (answer ${JSON.stringify(body).slice(0, 300)})`);
  }
  if (status === 405 && headers && headers.get('allow') !== (error.details?.allowed as string[] | undefined)?.join(', ')) {
    throw new Error(`${where}: Allow is ${headers.get('allow')}, details.allowed ${JSON.stringify(error.details?.allowed)}`);
  }
}

/**
 * Throws (failing the test that received it) when an answer under /api is not one the document
 * describes. `headers` (fetch's) adds the check of the documented headers.
 */
export function expectDocumentedAnswer(method: string, url: string, status: number, body: unknown, headers?: HeaderSource): void {
  // The path as it was sent: the URL parser resolves dot segments (`/api/orders/%2e%2e` is `/api/`).
  const path = new URL(url, 'http://contract.test').pathname;
  if (!path.startsWith('/api/') || method === 'OPTIONS' || method === 'HEAD') return;
  operations ??= load();
  const where = `${method} ${path} → ${status}`;
  expectErrorRules(where, status, body, headers);
  const matches = operations.filter((op) => op.pattern.test(path));
  const op = matches.find((candidate) => candidate.methods.has(method));
  if (!op) {
    // Not an operation: only the router's own refusals may answer (unknown route, wrong method).
    const expected = matches.length > 0 ? { status: 405, code: 'METHOD_NOT_ALLOWED' } : { status: 404, code: 'ROUTE_NOT_FOUND' };
    if (status === expected.status && errorShape!(body) && (body as JsonObject).error.code === expected.code) {
      return expectDocumentedHeaders(where, routerAnswers!.get(expected.code)!, headers);
    }
    // A body the router refused before routing (malformed JSON, too large...) is still the error shape.
    if (status >= 400 && status < 500 && errorShape!(body) && status !== 404 && status !== 405) return;
    throw new Error(`${where}: no such operation in the OpenAPI document (answer ${JSON.stringify(body)?.slice(0, 300)})`);
  }
  const documented = op.methods.get(method)!;
  if (!documented.has(String(status))) {
    throw new Error(`${where}: status ${status} is not documented for ${method} ${op.template} (answer ${JSON.stringify(body)?.slice(0, 300)})`);
  }
  const answer = documented.get(String(status))!;
  expectDocumentedHeaders(where, answer, headers);
  if (answer.schema === null) {
    if (body !== undefined) throw new Error(`${where}: documented without a body, answered ${JSON.stringify(body).slice(0, 300)}`);
    return;
  }
  answer.validate ??= ajv!.compile(rebase(answer.schema));
  if (!answer.validate(body)) {
    throw new Error(`${where}: the answer does not fit the OpenAPI document: ${whyNot(answer, body)} (answer ${JSON.stringify(body)?.slice(0, 500)})`);
  }
}

/**
 * Why an answer does not fit: for an error, what its own code's object says (an undeclared key, a
 * missing required one) or that the operation does not list the code; the errors of every branch of
 * the `oneOf` would bury that.
 */
function whyNot(answer: Answer, body: unknown): string {
  const error = (body as JsonObject | undefined)?.error as JsonObject | undefined;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  if (code === undefined) return describeErrors(answer.validate!);
  const mapping = ((answer.schema as JsonObject).properties?.error?.discriminator?.mapping ?? {}) as Record<string, string>;
  if (!(code in mapping)) return `the code ${code} is not one this answer documents (${Object.keys(mapping).join(', ')})`;
  if (!codeShapes.has(code)) {
    const name = codeSchemaName(code as ErrorCode);
    codeShapes.set(code, components!.schemas[name] ? ajv!.compile(rebase({ $ref: `#/components/schemas/${name}` })) : null);
  }
  const own = codeShapes.get(code);
  if (own && !own(error)) return `its ${code} object: ${describeErrors(own)}`;
  return describeErrors(answer.validate!);
}

/**
 * Throws when a request the server POSTed to a receiver is not what the document's `webhooks` section
 * says for its type: the body by the entry's schema, and the signature headers by their patterns.
 */
export function expectDocumentedWebhook(request: { headers: Record<string, string | string[] | undefined>; body: string }): void {
  operations ??= load();
  const body = JSON.parse(request.body) as JsonObject;
  const entry = webhooks!.get(String(body.type));
  if (!entry) throw new Error(`a webhook of type ${String(body.type)}, which the document's webhooks section does not list`);
  const where = `webhook ${String(body.type)}`;
  const headers = { get: (name: string) => [request.headers[name]].flat()[0] ?? null };
  expectDocumentedHeaders(where, { schema: null, headers: entry.headers }, headers);
  if (!entry.validate(body)) throw new Error(`${where}: the body does not fit the document: ${describeErrors(entry.validate)} (body ${request.body.slice(0, 500)})`);
}
