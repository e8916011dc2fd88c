import type { z } from 'zod';
import type { ErrorCode } from '../../error-codes.js';
import { toSnake } from '../../shared/case.js';
import type { Permission } from '../../shared/permissions.js';
import { inputSchema, type JsonSchema } from './json-schema.js';


/**
 * The OpenAPI description of one REST operation, written next to its route (`route.ts`). Schemas
 * are zod and camelCase, as the services take and give them: the document shows them snake_case,
 * as REST speaks. Request schemas are the services' own (the ones that validate); keys that are path
 * parameters are left out of the query and body.
 */
export interface OperationDoc {
  /** The group the operation is listed under in the reference. */
  tag: string;
  summary: string;
  description?: string;
  /**
   * What the caller needs (src/shared/permissions.ts), declared here once for the operation: the
   * route checks it first (access.ts), the use case again. Anything but `public` answers 401 without
   * a token; 403 to a caller without it.
   */
  permission: Permission;
  /** Path parameters that are not positive integer ids (the default), by their name in the path. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success body; null for 204 No Content. */
  response: z.ZodType | null;
  /** The success body's media type when it is not JSON (a CSV export: the handler answers a `TextReply`). */
  contentType?: string;
  /** The success body in other media types too, by media type, each a named response schema (a provider that wants a plain word back). */
  alsoAnswers?: Record<string, z.ZodType>;
  /**
   * A body that is not ours to describe (a provider's notification, signed over its bytes): the media
   * types taken and what they carry, with no schema. Instead of `body`.
   */
  foreignBody?: { mediaTypes: string[]; description: string };
  /** A file sent as the body, in one of these media types (an upload): described as binary. Instead of `body`. */
  fileBody?: { mediaTypes: readonly string[]; description: string };
  /** Success status (default 200, or 204 without a response); a list when it depends on the request. */
  status?: number | number[];
  /**
   * The codes this operation answers besides the shared ones (error-codes.ts): the use case's own
   * refusals, as its service declares them next to it (`export const payOrderRefusals = ...`).
   */
  errors?: readonly ErrorCode[];
  /** Takes an `Idempotency-Key` header. */
  idempotent?: boolean;
  /** Where a client goes next with the success answer (OpenAPI `links`), by name. */
  links?: Record<string, OperationLink>;
}

/**
 * A link from a success answer to the operation a client calls next: the target by method and
 * path (Express spelling, as registered), its path parameters by their names in that path
 * (`orderId`) as runtime expressions over the answer (`$response.body#/id`, in REST's snake_case).
 */
export interface OperationLink {
  method: Method;
  path: string;
  parameters?: Record<string, string>;
  description: string;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A documented operation as the router registered it, its path in Express's spelling under /api. */
export interface RegisteredOperation {
  method: Method;
  path: string;
  doc: OperationDoc;
}

/** `/orders/:orderId/pay` → `/api/orders/{order_id}/pay`, and the parameter names it holds. */
export function openApiPath(expressPath: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = expressPath.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    params.push(name);
    return `{${toSnake(name)}}`;
  });
  return { path: `/api${path}`, params };
}

/** The properties of an object schema, without the keys the path carries (routes merge params into the input). */
export function withoutPathKeys(schema: JsonSchema, pathKeys: string[]): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  for (const key of pathKeys) delete properties[key];
  const required = (schema.required as string[] | undefined)?.filter((key) => !pathKeys.includes(key));
  return { ...schema, properties, ...(required && required.length > 0 ? { required } : { required: undefined }) };
}

/** In a query string every value is text: a yes/no filter is `true` or `false`, which OpenAPI calls a boolean. */
function asQueryValue(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf as JsonSchema[] | undefined;
  const flag = options?.length === 2 && options.some((o) => o.type === 'boolean') && options.some((o) => JSON.stringify(o.enum) === '["true","false"]');
  if (!flag) return schema;
  const rest = { ...schema };
  delete rest.anyOf;
  return { ...rest, type: 'boolean' };
}

/**
 * The query parameters of an operation, by their REST names, with their schemas and whether they are
 * required: the document lists them, and the route refuses any other name (route.ts).
 */
export function queryParameters(doc: OperationDoc, expressPath: string): { name: string; required: boolean; schema: JsonSchema }[] {
  if (!doc.query) return [];
  const pathKeys = openApiPath(expressPath).params.map(toSnake);
  const query = withoutPathKeys(inputSchema(doc.query), pathKeys);
  const required = new Set((query.required as string[] | undefined) ?? []);
  return Object.entries(query.properties as Record<string, JsonSchema>).map(([name, schema]) => ({ name, required: required.has(name), schema: asQueryValue(schema) }));
}

const operations = new Map<string, RegisteredOperation>();

/** Called by `route()`: the same router registration is the document's source, so the two cannot drift. */
export function registerOperation(method: Method, path: string, doc: OperationDoc): void {
  operations.set(`${method} ${path}`, { method, path, doc });
}

export const registeredOperations = (): RegisteredOperation[] => [...operations.values()];
