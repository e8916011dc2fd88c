import type { ErrorCode } from '../../error-codes.js';
import type { JsonSchema } from './json-schema.js';

/** The codes whose `details.problems` lists every bad field: the answer always has it. */
export const PROBLEM_CODES: readonly ErrorCode[] = ['VALIDATION_FAILED', 'DESTINATION_INVALID'];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The one error shape with `code` narrowed to `codes`: written out whole, so generators keep the enum. */
export function errorBody(codes: readonly ErrorCode[]): JsonSchema {
  return {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: codes, description: 'Stable; see the list in docs/api.md.' },
          message: { type: 'string', description: 'For people; may change.' },
          details: {
            ...ref('ErrorDetails'),
            ...(codes.some((code) => PROBLEM_CODES.includes(code)) ? { description: `Always there, with \`problems\`, for ${PROBLEM_CODES.map((c) => `\`${c}\``).join(' and ')}.` } : {}),
          },
        },
      },
    },
  };
}

/**
 * The error shape's component schemas: `Error` (every code REST answers), `ErrorDetails` and
 * `Problem`. `details` holds the facts of a refusal: the named fields below where a code has them,
 * the rest (ids, amounts, states, by code: docs/api.md) as plain JSON values. The contract test
 * checks every error answer of the suite against them.
 */
export function errorSchemas(codes: ErrorCode[]): Record<string, JsonSchema> {
  return {
    Error: { description: 'The one error shape of every REST answer that is not a success (docs/api.md).', ...errorBody(codes) },
    ErrorDetails: {
      type: 'object',
      description: 'Machine-readable facts of the refusal, by code (docs/api.md).',
      properties: {
        problems: {
          type: 'array',
          minItems: 1,
          items: ref('Problem'),
          description: `Every bad field of the request (\`${PROBLEM_CODES.join('`, `')}\`).`,
        },
        retry_after_seconds: { type: 'integer', minimum: 0, description: 'When to try again (`RATE_LIMITED`, `SERVICE_BUSY`), as `Retry-After` says.' },
        allowed: { type: 'array', items: { type: 'string' }, description: 'The values or methods that are taken (`SORT_UNSUPPORTED`, `METHOD_NOT_ALLOWED`, a content kind that does not exist).' },
        parameter: { type: 'string', description: 'The query parameter at fault (`SORT_UNSUPPORTED`).' },
      },
      additionalProperties: ref('DetailValue'),
    },
    DetailValue: {
      description: 'A fact of an error: an id, an amount, a state, a time, or a list of them.',
      anyOf: [
        { type: 'string' },
        { type: 'number' },
        { type: 'boolean' },
        { type: 'null' },
        { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      ],
    },
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
