import type { z } from 'zod';
import { apiRouter } from '../api.js';
import { responseSchemas } from '../responses/common.js';
import { MAX_ID } from '../../shared/validate.js';
import { BODY_ERRORS, ERROR_STATUS, SHARED_ERRORS, WRITE_ERRORS, type ErrorCode } from '../../error-codes.js';
import { inputSchema, outputSchemas, type JsonSchema } from './json-schema.js';
import { registeredOperations, type Access, type RegisteredOperation } from './operation.js';
import { toSnake } from '../case.js';

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `/orders/:orderId/pay` → `/api/orders/{order_id}/pay`, and the parameter names it holds. */
export function openApiPath(expressPath: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = expressPath.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    params.push(name);
    return `{${toSnake(name)}}`;
  });
  return { path: `/api${path}`, params };
}

/** `post /orders/:orderId/pay` → `postOrdersByOrderIdPay`: stable, unique, readable. */
function operationId({ method, path }: RegisteredOperation): string {
  const words = path
    .split(/[/-]/)
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `By${capitalized(segment.slice(1))}` : capitalized(segment)));
  return method + words.join('');
}

/** No token, or one that is not accepted. */
const SIGNED_IN: ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED'];

const ACCESS: Record<Access, { who: string; errors: ErrorCode[] }> = {
  public: { who: 'Anyone; a customer\'s token adds their `favorited` flags where a read has them.', errors: [] },
  signed_in: { who: 'Anyone signed in.', errors: SIGNED_IN },
  customer: { who: 'Customers (their own objects: another customer\'s is 404).', errors: [...SIGNED_IN, 'FORBIDDEN'] },
  shop_operator: { who: 'Shop operators (their own shop: another shop\'s object is 404).', errors: [...SIGNED_IN, 'FORBIDDEN'] },
  platform_admin: { who: 'Platform admins.', errors: [...SIGNED_IN, 'FORBIDDEN'] },
  operator_or_admin: { who: 'Shop operators (their shop) and platform admins (every shop, or `shop_id`).', errors: [...SIGNED_IN, 'FORBIDDEN'] },
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The one error shape of every REST answer that is not a success (docs/api.md).',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'Stable; see the list in docs/api.md.' },
        message: { type: 'string', description: 'For people; may change.' },
        details: { type: 'object', description: 'Machine-readable facts, by code (`problems` for VALIDATION_FAILED).' },
      },
    },
  },
};

/** An error answer carrying one of `codes` (all of one status). */
function errorResponse(codes: ErrorCode[]): Record<string, unknown> {
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/Error', properties: { error: { properties: { code: { enum: codes } } } } } },
    },
  };
}

/**
 * The error answers of an operation, one per status, each naming the codes it may carry. An answer
 * with one code is a shared component (`#/components/responses/NOT_FOUND`), so the document stays small.
 */
function errorResponses(codes: ErrorCode[], shared: Record<string, unknown>): Record<string, unknown> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }
  const responses: Record<string, unknown> = {};
  for (const [status, set] of [...byStatus].sort(([a], [b]) => a - b)) {
    const list = [...set].sort();
    if (list.length === 1) {
      shared[list[0]] ??= errorResponse(list);
      responses[String(status)] = { $ref: `#/components/responses/${list[0]}` };
    } else {
      responses[String(status)] = errorResponse(list);
    }
  }
  return responses;
}

/** The properties of an object schema, without the keys the path carries (routes merge params into the input). */
function withoutPathKeys(schema: JsonSchema, pathKeys: string[]): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  for (const key of pathKeys) delete properties[key];
  const required = (schema.required as string[] | undefined)?.filter((key) => !pathKeys.includes(key));
  return { ...schema, properties, ...(required && required.length > 0 ? { required } : { required: undefined }) };
}

const positiveId: JsonSchema = { type: 'integer', minimum: 1, maximum: MAX_ID };

function operationObject(op: RegisteredOperation, responseIds: Map<z.ZodType, string>, sharedResponses: Record<string, unknown>): Record<string, unknown> {
  const { doc } = op;
  const { params } = openApiPath(op.path);
  const pathKeys = params.map(toSnake);
  const parameters: unknown[] = params.map((name) => ({
    name: toSnake(name),
    in: 'path',
    required: true,
    schema: doc.params?.[name] ? inputSchema(doc.params[name]) : positiveId,
  }));
  if (doc.query) {
    const query = withoutPathKeys(inputSchema(doc.query), pathKeys);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(query.properties as Record<string, JsonSchema>)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  if (doc.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A repeated key answers the first committed answer (docs/api.md).',
      schema: { type: 'string', minLength: 1, maxLength: 200 },
    });
  }

  const statuses = doc.status === undefined ? [doc.response ? 200 : 204] : [doc.status].flat();
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    responses[String(status)] = doc.response
      ? { description: 'Success', content: { 'application/json': { schema: { $ref: `#/components/schemas/${responseIds.get(doc.response)}` } } } }
      : { description: 'Done; no body' };
  }
  const hasBody = op.method !== 'get';
  const codes = new Set<ErrorCode>([...SHARED_ERRORS, ...(hasBody ? [...BODY_ERRORS, ...WRITE_ERRORS] : []), ...ACCESS[doc.access].errors, ...(doc.errors ?? [])]);
  Object.assign(responses, errorResponses([...codes], sharedResponses));

  return {
    operationId: operationId(op),
    tags: [doc.tag],
    summary: doc.summary,
    description: [doc.description, `**Who:** ${ACCESS[doc.access].who}`].filter(Boolean).join('\n\n'),
    ...(doc.access === 'public' ? { security: [{}, { bearer: [] }] } : { security: [{ bearer: [] }] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: withoutPathKeys(inputSchema(doc.body), pathKeys) } } } }
      : {}),
    responses,
  };
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
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  const sharedResponses: Record<string, unknown> = {};
  for (const op of operations) {
    const { path } = openApiPath(op.path);
    (paths[path] ??= {})[op.method] = operationObject(op, responseIds, sharedResponses);
    if (!tags.includes(op.doc.tag)) tags.push(op.doc.tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mallfront REST API',
      version: '1',
      description:
        'The REST door of Mallfront, under `/api`. JSON keys are snake_case; timestamps are ISO 8601 in UTC; money is whole minor units of the base currency. Conventions, pagination, errors and events: docs/api.md. The same operations over GraphQL: `/graphql`.',
    },
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token from register or login.' } },
      schemas: { Error: ERROR_SCHEMA, ...outputSchemas(responseSchemas) },
      responses: Object.fromEntries(Object.entries(sharedResponses).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}

let text: string | undefined;

/** The document as served and committed (`openapi.json`): built once per process. */
export function openApiJson(): string {
  text ??= JSON.stringify(buildOpenApiDocument(), null, 2) + '\n';
  return text;
}
