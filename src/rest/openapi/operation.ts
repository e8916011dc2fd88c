import type { z } from 'zod';
import type { ErrorCode } from '../../error-codes.js';

/**
 * Who may call an operation. Anything but `public` answers 401 without a token; the roles answer
 * 403 to the others (docs/api.md says who may call what).
 */
export type Access = 'public' | 'signed_in' | 'customer' | 'shop_operator' | 'platform_admin' | 'operator_or_admin';

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
  access: Access;
  /** Path parameters that are not positive integer ids (the default), by their name in the path. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success body; null for 204 No Content. */
  response: z.ZodType | null;
  /** Success status (default 200, or 204 without a response); a list when it depends on the request. */
  status?: number | number[];
  /** The codes this operation answers besides the shared ones (error-codes.ts). */
  errors?: ErrorCode[];
  /** Takes an `Idempotency-Key` header. */
  idempotent?: boolean;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A documented operation as the router registered it, its path in Express's spelling under /api. */
export interface RegisteredOperation {
  method: Method;
  path: string;
  doc: OperationDoc;
}

const operations = new Map<string, RegisteredOperation>();

/** Called by `route()`: the same router registration is the document's source, so the two cannot drift. */
export function registerOperation(method: Method, path: string, doc: OperationDoc): void {
  operations.set(`${method} ${path}`, { method, path, doc });
}

export const registeredOperations = (): RegisteredOperation[] => [...operations.values()];
