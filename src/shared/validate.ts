import { z } from './input-rules.js';
import { validationError } from '../errors.js';
import type { InputProblem } from './unsafe-text.js';

// The rules and the zod they configure live in a file the web app imports too (input-rules.ts imports
// zod only); the service code keeps reaching them through this module.
export * from './input-rules.js';

/**
 * Parses service input with a zod schema. A failure becomes VALIDATION_FAILED with one entry per
 * problem (`field` as a dotted path in the services' camelCase; REST answers it in snake_case).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(result.error.issues.flatMap((issue) => problemsOf(issue, [])));
}

type Issue = z.core.$ZodIssue;

/**
 * The problems of one zod issue, at their dotted paths. A union none of whose forms fits names what
 * is wrong inside the one form the value has (an array where a list or a map is taken: the list's
 * item), instead of a bare "Invalid input"; when the value has none of the forms, that is the problem.
 */
function problemsOf(issue: Issue, prefix: PropertyKey[]): InputProblem[] {
  const at = [...prefix, ...issue.path];
  const path = at.map(String).join('.');
  // Each unknown key is a problem at its own path, so that REST can name it as the client spelled it.
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: path ? `${path}.${key}` : key, message: 'Unknown field' }));
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const shaped = issue.errors.filter((branch) => !branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0));
    if (shaped.length === 1) return shaped[0].flatMap((inner) => problemsOf(inner, at));
  }
  return [{ field: path || null, message: issue.message }];
}

/** VALIDATION_FAILED listing every problem; the message names the first. */
export function validationFailed(problems: InputProblem[]) {
  const first = problems[0];
  return validationError(first.field ? `${first.field}: ${first.message}` : first.message, { problems });
}

