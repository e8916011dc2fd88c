import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../src/rest/openapi/document.js';

/**
 * The contract test: every REST answer the suite receives (through `TestApp.api`) must be one the
 * OpenAPI document describes: a documented operation, a documented status, a body that fits its
 * schema. The document is built once per test file (jest's module registry), and each answer's
 * schema compiled when a test first meets it: compiling all of them up front cost every file
 * seconds. Nothing of it runs in the server.
 */
interface Operation {
  template: string;
  pattern: RegExp;
  params: number;
  /** Per method, per status: the body's schema (null: no body), compiled when first needed. */
  methods: Map<string, Map<string, Answer>>;
}

interface Answer {
  schema: unknown;
  validate?: ValidateFunction;
}

type JsonObject = Record<string, any>;

let operations: Operation[] | undefined;
let errorShape: ValidateFunction | undefined;
let ajv: Ajv2020 | undefined;

// `#/components/...` inside the document means the document: resolve it against the one schema added in `load`.
const rebase = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, '"$ref":"openapi.json#/components/')) as object;

function load(): Operation[] {
  const doc = buildOpenApiDocument() as JsonObject;
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi.json', components: doc.components }, 'openapi.json');
  errorShape = ajv.compile(rebase({ $ref: '#/components/schemas/Error' }));
  const list: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, JsonObject>)) {
    const names: string[] = [];
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
    const methods = new Map<string, Map<string, Answer>>();
    for (const [method, op] of Object.entries(item)) {
      const statuses = new Map<string, Answer>();
      for (const [status, response] of Object.entries(op.responses as Record<string, JsonObject>)) {
        const resolved = response.$ref ? doc.components.responses[String(response.$ref).split('/').pop()!] : response;
        statuses.set(status, { schema: resolved.content?.['application/json']?.schema ?? null });
      }
      methods.set(method.toUpperCase(), statuses);
    }
    list.push({ template, pattern: new RegExp(`^${source}/?$`, "i"), params: names.length, methods });
  }
  // A literal segment wins over a parameter (`/products/facets` before `/products/{id}`), as Express's order does.
  return list.sort((a, b) => a.params - b.params);
}

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '$'} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''}`).join('; ');

/** Throws (failing the test that received it) when an answer under /api is not one the document describes. */
export function expectDocumentedAnswer(method: string, url: string, status: number, body: unknown): void {
  const path = url.split('?')[0];
  if (!path.startsWith('/api/') || method === 'OPTIONS' || method === 'HEAD') return;
  operations ??= load();
  const where = `${method} ${path} → ${status}`;
  const matches = operations.filter((op) => op.pattern.test(path));
  const op = matches.find((candidate) => candidate.methods.has(method));
  if (!op) {
    // Not an operation: only the router's own refusals may answer (unknown route, wrong method).
    const expected = matches.length > 0 ? { status: 405, code: 'METHOD_NOT_ALLOWED' } : { status: 404, code: 'ROUTE_NOT_FOUND' };
    if (status === expected.status && errorShape!(body) && (body as JsonObject).error.code === expected.code) return;
    // A body the router refused before routing (malformed JSON, too large...) is still the error shape.
    if (status >= 400 && status < 500 && errorShape!(body) && status !== 404 && status !== 405) return;
    throw new Error(`${where}: no such operation in the OpenAPI document (answer ${JSON.stringify(body)?.slice(0, 300)})`);
  }
  const validate = op.methods.get(method)!;
  if (!validate.has(String(status))) {
    throw new Error(`${where}: status ${status} is not documented for ${method} ${op.template} (answer ${JSON.stringify(body)?.slice(0, 300)})`);
  }
  const answer = validate.get(String(status))!;
  if (answer.schema === null) {
    if (body !== undefined) throw new Error(`${where}: documented without a body, answered ${JSON.stringify(body).slice(0, 300)}`);
    return;
  }
  answer.validate ??= ajv!.compile(rebase(answer.schema));
  if (!answer.validate(body)) {
    throw new Error(`${where}: the answer does not fit the OpenAPI document: ${describeErrors(answer.validate)} (answer ${JSON.stringify(body)?.slice(0, 500)})`);
  }
}
