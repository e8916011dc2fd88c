import type { z } from 'zod';
import { apiRouter } from '../api.js';
import { responseSchemas } from '../responses/common.js';
import { BODY_ERRORS, ERROR_STATUS, SHARED_ERRORS, WRITE_ERRORS, type ErrorCode } from '../../error-codes.js';
import { MAX_ID } from '../../shared/validate.js';
import { IdempotencyKeyText } from '../../shared/idempotency.js';
import { REQUEST_ID_PATTERN } from '../../shared/request-id.js';
import { IDEMPOTENCY_KEY_HEADER } from '../request-rules.js';
import { errorBody, errorSchemas } from './error-schemas.js';
import { webhooksSection } from './webhooks.js';
import { inputSchema, outputSchemas, type JsonSchema } from './json-schema.js';
import {
  openApiPath, queryParameters, registeredOperations, withoutPathKeys, type OperationDoc, type RegisteredOperation,
} from './operation.js';
import { toSnake } from '../../shared/case.js';
import { isShopPermission, Permission, PLATFORM_ROLE_PERMISSIONS, SHOP_ROLE_PERMISSIONS } from '../../shared/permissions.js';
import { SHOP_HEADER } from '../../shared/acting-shop.js';

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `post /orders/:orderId/pay` → `postOrdersByOrderIdPay`: stable, unique, readable. */
function operationId({ method, path }: Pick<RegisteredOperation, 'method' | 'path'>): string {
  const words = path
    .split(/[/-]/)
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `By${capitalized(segment.slice(1))}` : capitalized(segment)));
  return method + words.join('');
}

/** No token, or one that is not accepted. */
const SIGNED_IN: ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED'];

const rolesWith = (table: Record<string, readonly Permission[]>, permission: Permission) =>
  Object.entries(table).filter(([, permissions]) => permissions.includes(permission)).map(([role]) => `\`${role}\``);

/** Who may call an operation that declares `permission`, as its description says, and the codes that refuse the others. */
export function access(permission: Permission): { who: string; errors: ErrorCode[] } {
  if (permission === Permission.Public) return { who: 'Anyone; a customer\'s token adds their `favorited` flags where a read has them.', errors: [] };
  if (permission === Permission.SignedIn) return { who: 'Anyone signed in.', errors: SIGNED_IN };
  if (permission === Permission.Customer) return { who: 'Customers (their own objects: another customer\'s is 404).', errors: [...SIGNED_IN, 'FORBIDDEN'] };
  const shop = rolesWith(SHOP_ROLE_PERMISSIONS, permission);
  const platform = rolesWith(PLATFORM_ROLE_PERMISSIONS, permission);
  const holders = [
    shop.length > 0 ? `members of the shop the request acts for (\`${SHOP_HEADER}\`) with the shop role ${shop.join(', ')} (another shop's object is 404)` : '',
    platform.length > 0 ? `platform staff with the platform role ${platform.join(', ')}` : '',
  ].filter(Boolean);
  return { who: `Needs \`${permission}\`: ${holders.join('; ')}.`, errors: [...SIGNED_IN, 'FORBIDDEN'] };
}

/** Answered by the router itself, outside any operation: an unknown path, a method the path does not take. */
const ROUTER_ERRORS: ErrorCode[] = ['ROUTE_NOT_FOUND', 'METHOD_NOT_ALLOWED'];

/**
 * Every code an operation may answer: the ones every operation shares, the body parser's on
 * operations that read a body (and a lost race on a unique key, `CONFLICT`, on writes), the access
 * level's, and the use case's own refusals.
 */
export function operationErrorCodes(method: string, doc: OperationDoc): ErrorCode[] {
  const writes = method !== 'get';
  const codes = new Set<ErrorCode>([...SHARED_ERRORS, ...(writes ? [...BODY_ERRORS, ...WRITE_ERRORS] : []), ...access(doc.permission).errors, ...(doc.errors ?? [])]);
  return [...codes].sort();
}

const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': {
    description: 'The id this request is logged under: the `X-Request-Id` the client sent when it fits the pattern, otherwise a new UUID.',
    required: true,
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN.source },
  },
  'X-Trace-Id': {
    description: 'The trace this request is part of (32 hex digits, W3C Trace Context): the trace id of the `traceparent` the client sent, otherwise a new one. Its log lines, errors included, carry it.',
    required: true,
    schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again (`details.retry_after_seconds` says the same).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  Allow: {
    description: 'The methods the path takes, `HEAD` wherever `GET` is (RFC 9110).',
    required: true,
    schema: { type: 'string' },
  },
};

/** The headers of an answer: the request and trace ids always, `Retry-After` on the statuses that ask a client to wait (429, 503). */
function answerHeaders(status: number): Record<string, unknown> {
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'X-Request-Id'), 'X-Trace-Id': ref('headers', 'X-Trace-Id') };
  if (status === 429 || status === 503) headers['Retry-After'] = ref('headers', 'Retry-After');
  return headers;
}

function errorResponse(status: number, codes: ErrorCode[]): Record<string, unknown> {
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    headers: answerHeaders(status),
    content: { 'application/json': { schema: errorBody(codes) } },
  };
}

/** The codes of an operation by status, ascending. */
function byStatus(codes: ErrorCode[]): [number, ErrorCode[]][] {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) groups.set(ERROR_STATUS[code], [...(groups.get(ERROR_STATUS[code]) ?? []), code]);
  return [...groups].sort(([a], [b]) => a - b).map(([status, list]) => [status, list.sort()]);
}

/**
 * The error answers of all operations. A set of codes that several operations answer with one
 * status is a shared component (`#/components/responses/NOT_FOUND`, or the codes joined by dots), so
 * the document stays small; a set of one operation stays inline.
 */
class ErrorResponses {
  private readonly uses = new Map<string, number>();
  readonly shared: Record<string, unknown> = {};

  constructor(operations: RegisteredOperation[]) {
    for (const op of operations) {
      for (const [status, codes] of byStatus(operationErrorCodes(op.method, op.doc))) this.uses.set(this.key(status, codes), (this.uses.get(this.key(status, codes)) ?? 0) + 1);
    }
  }

  private key = (status: number, codes: ErrorCode[]) => `${status} ${codes.join('.')}`;

  of(method: string, doc: OperationDoc): Record<string, unknown> {
    const responses: Record<string, unknown> = {};
    for (const [status, codes] of byStatus(operationErrorCodes(method, doc))) {
      if (codes.length > 1 && this.uses.get(this.key(status, codes)) === 1) {
        responses[String(status)] = errorResponse(status, codes);
        continue;
      }
      const name = codes.join('.');
      this.shared[name] ??= errorResponse(status, codes);
      responses[String(status)] = ref('responses', name);
    }
    return responses;
  }
}

/** `links` of a success answer: where the flows go next (checkout → order → pay → shipment...). */
function linksOf(doc: OperationDoc, known: Set<string>): Record<string, unknown> | undefined {
  if (!doc.links) return undefined;
  return Object.fromEntries(
    Object.entries(doc.links).map(([name, link]) => {
      const target = operationId(link);
      if (!known.has(target)) throw new Error(`link ${name} names no operation: ${link.method} ${link.path}`);
      const parameters = link.parameters && Object.fromEntries(Object.entries(link.parameters).map(([param, value]) => [toSnake(param), value]));
      return [name, { operationId: target, description: link.description, ...(parameters ? { parameters } : {}) }];
    }),
  );
}

const positiveId: JsonSchema = { type: 'integer', minimum: 1, maximum: MAX_ID };

function operationObject(op: RegisteredOperation, responseIds: Map<z.ZodType, string>, errors: ErrorResponses, known: Set<string>): Record<string, unknown> {
  const { doc } = op;
  const { params } = openApiPath(op.path);
  const pathKeys = params.map(toSnake);
  const parameters: unknown[] = params.map((name) => ({
    name: toSnake(name),
    in: 'path',
    required: true,
    schema: doc.params?.[name] ? inputSchema(doc.params[name]) : positiveId,
  }));
  for (const { name, required, schema } of queryParameters(doc, op.path)) {
    // A list in the query is comma-separated (`types=order.paid,order.cancelled`): OpenAPI's `form` without `explode`.
    parameters.push({ name, in: 'query', required, schema, ...(schema.type === 'array' ? { style: 'form', explode: false } : {}) });
  }
  if (isShopPermission(doc.permission)) {
    parameters.push({
      name: SHOP_HEADER,
      in: 'header',
      required: false,
      description: 'The shop this request acts for, by id: needed when the caller belongs to several shops; by default the only shop the caller belongs to (docs/api.md).',
      schema: positiveId,
    });
  }
  if (doc.idempotent) {
    parameters.push({
      name: IDEMPOTENCY_KEY_HEADER,
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: a repeated key from the same customer answers the first committed answer (the same status and body, with no marker), ' +
        'the same key with another request is 422 `IDEMPOTENCY_KEY_REUSED` (docs/api.md). Sent empty or malformed it is 400 `VALIDATION_FAILED` naming the header.',
      schema: inputSchema(IdempotencyKeyText),
    });
  }

  const statuses = doc.status === undefined ? [doc.response ? 200 : 204] : [doc.status].flat();
  const links = linksOf(doc, known);
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    responses[String(status)] = {
      description: doc.response ? 'Success' : 'Done; no body',
      headers: answerHeaders(status),
      ...(doc.response ? { content: responseContent(doc, responseIds) } : {}),
      ...(links ? { links } : {}),
    };
  }
  Object.assign(responses, errors.of(op.method, doc));

  return {
    operationId: operationId(op),
    tags: [doc.tag],
    summary: doc.summary,
    description: [doc.description, `**Who:** ${access(doc.permission).who}`].filter(Boolean).join('\n\n'),
    'x-permission': doc.permission,
    ...(doc.permission === Permission.Public ? { security: [{}, { bearer: [] }] } : { security: [{ bearer: [] }] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: withoutPathKeys(inputSchema(doc.body), pathKeys) } } } }
      : {}),
    ...(doc.foreignBody
      ? { requestBody: { required: true, description: doc.foreignBody.description, content: Object.fromEntries(doc.foreignBody.mediaTypes.map((type) => [type, { schema: FOREIGN_BODIES[type] }])) } }
      : {}),
    ...(doc.fileBody
      ? { requestBody: { required: true, description: doc.fileBody.description, content: Object.fromEntries(doc.fileBody.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) } }
      : {}),
    responses,
  };
}

/**
 * A body another party defines, by media type: a JSON object whose fields are the sender's (Stripe's
 * event, the sandbox's), or a form, whose fields are text (Alipay's). Verified by the provider's
 * signature over its bytes, so the document does not restate the provider's schema.
 */
const FOREIGN_BODIES: Record<string, unknown> = {
  'application/json': { type: 'object', additionalProperties: true, description: "The provider's own JSON object" },
  'application/x-www-form-urlencoded': { type: 'object', additionalProperties: { type: 'string' }, description: "The provider's signed form: every field text" },
};

/** The success body's media types: its own (JSON unless `contentType` says) and those it `alsoAnswers` in. */
function responseContent(doc: OperationDoc, responseIds: Map<z.ZodType, string>): Record<string, unknown> {
  const content: Record<string, unknown> = { [doc.contentType ?? 'application/json']: { schema: ref('schemas', responseIds.get(doc.response!)!) } };
  for (const [type, schema] of Object.entries(doc.alsoAnswers ?? {})) content[type] = { schema: ref('schemas', responseSchemas.get(schema)!.id) };
  return content;
}

/** Response schemas an operation gives inline get a component of their own, named after it. */
function responseComponentIds(operations: RegisteredOperation[]): Map<z.ZodType, string> {
  for (const op of operations) {
    const response = op.doc.response;
    if (response && !responseSchemas.has(response)) responseSchemas.add(response, { id: `${capitalized(operationId(op))}Response` });
  }
  const ids = new Map<z.ZodType, string>();
  for (const op of operations) if (op.doc.response) ids.set(op.doc.response, responseSchemas.get(op.doc.response)!.id);
  return ids;
}

/** The OpenAPI 3.1 document of every REST operation, built from the routes' own descriptions. */
export function buildOpenApiDocument(): Record<string, unknown> {
  apiRouter(); // registers every route, and so its description
  const operations = registeredOperations();
  const responseIds = responseComponentIds(operations);
  const errors = new ErrorResponses(operations);
  const known = new Set(operations.map(operationId));
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  for (const op of operations) {
    const { path } = openApiPath(op.path);
    (paths[path] ??= {})[op.method] = operationObject(op, responseIds, errors, known);
    if (!tags.includes(op.doc.tag)) tags.push(op.doc.tag);
  }
  const everyCode = [...new Set([...ROUTER_ERRORS, ...operations.flatMap((op) => operationErrorCodes(op.method, op.doc))])].sort();
  for (const code of ROUTER_ERRORS) {
    errors.shared[code] = { ...errorResponse(ERROR_STATUS[code], [code]), ...(code === 'METHOD_NOT_ALLOWED' ? { headers: { ...answerHeaders(405), Allow: ref('headers', 'Allow') } } : {}) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mallfront REST API',
      version: '1',
      description:
        'The REST door of Mallfront, under `/api`. JSON keys are snake_case; timestamps are ISO 8601 in UTC; money is whole minor units of the base currency. ' +
        'Every answer carries `X-Request-Id` and `X-Trace-Id`. Errors have one shape (`Error`); each operation lists the codes it may answer, by status. ' +
        'A path answers a method it does not take with 405 `METHOD_NOT_ALLOWED` and an `Allow` header, an unknown path with 404 `ROUTE_NOT_FOUND` (`#/components/responses`). ' +
        'Conventions, pagination, errors and events: docs/api.md. The same operations over GraphQL: `/graphql`.',
    },
    tags: [...tags, 'Webhooks'].map((name) => ({ name })),
    paths,
    webhooks: webhooksSection(),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token from register or login.' } },
      schemas: { ...errorSchemas(everyCode), ...outputSchemas(responseSchemas) },
      responses: Object.fromEntries(Object.entries(errors.shared).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
    },
  };
}

let text: string | undefined;

/** The document as served and committed (`openapi.json`): built once per process. */
export function openApiJson(): string {
  text ??= JSON.stringify(buildOpenApiDocument(), null, 2) + '\n';
  return text;
}
