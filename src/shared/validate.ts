import { z } from 'zod';
import { validationError } from '../errors.js';
import type { InputProblem } from './unsafe-text.js';

export { z };

/**
 * Parses service input with a zod schema. A failure becomes VALIDATION_FAILED with one entry per
 * problem (`field` as a dotted path in the services' camelCase; REST answers it in snake_case).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(
    result.error.issues.flatMap((issue) => {
      const path = issue.path.map(String).join('.');
      // Each unknown key is a problem at its own path, so that REST can name it as the client spelled it.
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: path ? `${path}.${key}` : key, message: 'Unknown field' }));
      return [{ field: path || null, message: issue.message }];
    }),
  );
}

/** VALIDATION_FAILED listing every problem; the message names the first. */
export function validationFailed(problems: InputProblem[]) {
  const first = problems[0];
  return validationError(first.field ? `${first.field}: ${first.message}` : first.message, { problems });
}

/** The largest id: ids are PostgreSQL `integer`s (GraphQL's `Int` has the same bound). */
export const MAX_ID = 2147483647;
const ID_RANGE = `must be a whole number from 1 to ${MAX_ID}`;

/** Common field shapes. Money and quantities are whole numbers: no floats anywhere. */
export const money = z.number().int().min(0).max(2_000_000_000);
export const quantity = z.number().int().min(0).max(1_000_000);

/**
 * A whole number sent as JSON, or as digits in a URL (path segment, query string). Anything else
 * ("1e3", " 7", "", "0x10") is refused instead of being coerced.
 */
export const wholeNumber = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (typeof value === 'string' && /^\d{1,30}$/.test(value) ? Number(value) : value), schema);

/**
 * An id from a path or query parameter, or from JSON: the same bounds, and the same words for them,
 * in every refusal and in the OpenAPI document (`minimum: 1`, `maximum: 2147483647`).
 */
export const idParam = wholeNumber(z.number({ error: ID_RANGE }).int({ error: ID_RANGE }).min(1, { error: ID_RANGE }).max(MAX_ID, { error: ID_RANGE }));

/** An id in a JSON body (or a path parameter handed on inside one): same bounds, same words. */
export const id = z.coerce.number({ error: ID_RANGE }).int({ error: ID_RANGE }).min(1, { error: ID_RANGE }).max(MAX_ID, { error: ID_RANGE });
