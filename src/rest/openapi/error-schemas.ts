import { ERROR_CODES, type ErrorCode, type ErrorCodeDeclaration } from '../../error-codes.js';
import { ERROR_DETAIL_KINDS, type ErrorDetailKey, type ErrorDetailKind } from '../../error-details.js';
import type { JsonSchema } from './json-schema.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The component schema of one code's `error` object: `NOT_FOUND` → `#/components/schemas/NotFoundError`. */
export function codeSchemaName(code: ErrorCode): string {
  return `${code.toLowerCase().split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')}Error`;
}

/** A detail's value by its kind, as REST answers it (a time as ISO 8601 text; `allowed` always a list). */
const KIND_SCHEMAS: Record<ErrorDetailKind, JsonSchema> = {
  int: { type: 'integer' },
  string: { type: 'string' },
  enum: { type: 'string' },
  'enum list': { type: 'array', items: { type: 'string' } },
  'date-time': { type: 'string', format: 'date-time' },
  'text or list': { type: 'array', items: { type: 'string' } },
  problems: { type: 'array', minItems: 1, items: ref('Problem') },
};

/** What a few keys mean beyond their name. */
const KEY_NOTES: Partial<Record<ErrorDetailKey, JsonSchema>> = {
  problems: { description: 'Every bad field of the request.' },
  retry_after_seconds: { minimum: 0, description: 'When to try again, as `Retry-After` says.' },
  allowed: { description: 'The values or methods that are taken.' },
  parameter: { description: 'The query parameter at fault.' },
};

const detailSchema = (key: ErrorDetailKey): JsonSchema => ({ ...KIND_SCHEMAS[ERROR_DETAIL_KINDS[key]], ...KEY_NOTES[key] });

/**
 * One code's `error` object: the code, the message, and `details` with exactly the keys the code
 * declares (src/error-codes.ts), its required ones required; a code that declares none has no
 * `details`.
 */
function codeSchema(code: ErrorCode): JsonSchema {
  const { status, required = [], optional = [] }: ErrorCodeDeclaration = ERROR_CODES[code];
  const keys = [...required, ...optional];
  const details: JsonSchema = {
    type: 'object',
    description: 'Machine-readable facts of the refusal.',
    ...(required.length > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
    properties: Object.fromEntries(keys.map((key) => [key, detailSchema(key)])),
  };
  return {
    type: 'object',
    description: `\`${code}\`, HTTP ${status}${keys.length === 0 ? '; no details' : ''}.`,
    required: ['code', 'message', ...(required.length > 0 ? ['details'] : [])],
    additionalProperties: false,
    properties: {
      code: { type: 'string', const: code, description: 'Stable; see the list in docs/api.md.' },
      message: { type: 'string', description: 'For people; may change.' },
      ...(keys.length > 0 ? { details } : {}),
    },
  };
}

/**
 * The one error shape with `error` one of `codes`' own objects, told apart by `code` (a
 * discriminator with its mapping), so a client reads `details` by code.
 */
export function errorBody(codes: readonly ErrorCode[]): JsonSchema {
  return {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        oneOf: codes.map((code) => ref(codeSchemaName(code))),
        discriminator: {
          propertyName: 'code',
          mapping: Object.fromEntries(codes.map((code) => [code, ref(codeSchemaName(code)).$ref])),
        },
      },
    },
  };
}

/**
 * The error shape's component schemas: `Error` (every code REST answers), each code's own `error`
 * object (`#/components/schemas/NotFoundError`...), and `Problem`. The contract test checks every
 * error answer of the suite against its operation's codes.
 */
export function errorSchemas(codes: ErrorCode[]): Record<string, JsonSchema> {
  return {
    Error: { description: 'The one error shape of every REST answer that is not a success (docs/api.md).', ...errorBody(codes) },
    ...Object.fromEntries(codes.map((code) => [codeSchemaName(code), codeSchema(code)])),
    Problem: {
      type: 'object',
      required: ['field', 'message'],
      additionalProperties: false,
      properties: {
        field: {
          type: ['string', 'null'],
          description: 'A dotted path as the request spelled it (`shipping_address.region`, `skus.0.price`, a query parameter, the `Idempotency-Key` header); null for the request as a whole.',
        },
        message: { type: 'string' },
      },
    },
  };
}
