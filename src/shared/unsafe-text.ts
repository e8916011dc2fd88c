import { MAX_JSON_DEPTH } from './json-depth.js';
import type { InputProblem } from '../error-details.js';

/**
 * Text no field may hold: NUL (PostgreSQL refuses it in `text`, which surfaced as a 500) and a lone
 * UTF-16 surrogate (no UTF-8 form: it would be stored as U+FFFD, not as what was sent). With the `u`
 * flag a well-formed surrogate pair is one astral code point, so only unpaired halves match `\p{Cs}`.
 */
const UNSAFE_TEXT = /\0|\p{Cs}/u;

export const UNSAFE_TEXT_MESSAGE = 'must not contain a NUL character or an unpaired surrogate';

export type { InputProblem } from '../error-details.js';

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Every place in a parsed input (JSON body, query, path params, GraphQL variables) where a string or
 * an object key holds unsafe text, by dotted path (a bad key is reported at its object). Nesting past
 * `MAX_JSON_DEPTH` is a problem too, so the walk is bounded whatever the input's origin.
 */
export function unsafeTextProblems(value: unknown, path = '', problems: InputProblem[] = [], depth = 0): InputProblem[] {
  if (typeof value === 'string') {
    if (UNSAFE_TEXT.test(value)) problems.push({ field: path || null, message: UNSAFE_TEXT_MESSAGE });
    return problems;
  }
  if (value === null || typeof value !== 'object') return problems;
  if (depth >= MAX_JSON_DEPTH) {
    problems.push({ field: path || null, message: `must not be nested more than ${MAX_JSON_DEPTH} levels deep` });
    return problems;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => unsafeTextProblems(item, join(path, String(index)), problems, depth + 1));
    return problems;
  }
  for (const key of Object.keys(value)) {
    if (UNSAFE_TEXT.test(key)) problems.push({ field: path || null, message: `keys ${UNSAFE_TEXT_MESSAGE}` });
    else unsafeTextProblems((value as Record<string, unknown>)[key], join(path, key), problems, depth + 1);
  }
  return problems;
}
