import { ERROR_DETAIL_KINDS } from '../../src/error-details.js';
import { fieldName } from '../../src/graphql/spelling.js';
import type { TestApp } from './harness.js';

/** Every field of `UserErrorDetails` (the details REST gives, camelCased). */
const DETAIL_FIELDS = Object.entries(ERROR_DETAIL_KINDS)
  .filter(([, kind]) => kind !== 'problems' && kind !== 'text or list')
  .map(([key]) => fieldName(key))
  .join(' ');

/** The selection of a payload's user errors, every detail included. */
export const USER_ERRORS = `userErrors { code message field details { ${DETAIL_FIELDS} } }`;

export interface UserErrorResult {
  code: string;
  message: string;
  field: string[] | null;
  details: Record<string, unknown> | null;
}

/**
 * Runs one mutation the way the schema's convention has it, `field(input: $input) { selection userErrors }`
 * (no argument for an `input` of null), and answers its payload beside the top-level errors.
 */
export async function mutate(
  t: TestApp,
  field: string,
  input: Record<string, unknown> | null,
  selection: string,
  token?: string,
): Promise<{ status: number; payload: any; userErrors: UserErrorResult[]; errors?: any[] }> {
  const inputType = `${field[0].toUpperCase()}${field.slice(1)}Input`;
  const query = input === null
    ? `mutation { ${field} { ${selection} ${USER_ERRORS} } }`
    : `mutation($input: ${inputType}!) { ${field}(input: $input) { ${selection} ${USER_ERRORS} } }`;
  const res = await t.gql(query, input === null ? undefined : { input }, token);
  const payload = res.data?.[field] ?? null;
  return { status: res.status, payload, userErrors: payload?.userErrors ?? [], errors: res.errors };
}
