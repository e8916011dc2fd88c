import { ERROR_CODES, type ErrorCode, type ErrorCodeDeclaration } from '../../src/error-codes.js';
import { ERROR_DETAIL_KINDS, type ErrorDetailKey } from '../../src/error-details.js';
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
  const userErrors: UserErrorResult[] = payload?.userErrors ?? [];
  for (const error of userErrors) expectDeclaredDetails(field, error);
  return { status: res.status, payload, userErrors, errors: res.errors };
}

/** The keys GraphQL answers (`problems` become user errors of their own; `allowed` is REST's alone). */
const inGraphQL = (key: ErrorDetailKey) => ERROR_DETAIL_KINDS[key] !== 'problems' && ERROR_DETAIL_KINDS[key] !== 'text or list';

/**
 * Throws (failing the test) when a user error's details set a field its code does not declare, or
 * leave out one it requires (src/error-codes.ts): the REST contract check's rule, over GraphQL.
 */
function expectDeclaredDetails(mutation: string, error: UserErrorResult): void {
  const declaration: ErrorCodeDeclaration | undefined = ERROR_CODES[error.code as ErrorCode];
  if (!declaration) return; // a retired code: never answered
  const { required = [], optional = [] } = declaration;
  const set = Object.entries(error.details ?? {}).filter(([, value]) => value !== null).map(([name]) => name);
  const allowed = new Set([...required, ...optional].filter(inGraphQL).map(fieldName));
  const undeclared = set.filter((name) => !allowed.has(name));
  const missing = required.filter(inGraphQL).map(fieldName).filter((name) => !set.includes(name));
  if (undeclared.length > 0 || missing.length > 0) {
    throw new Error(`${mutation}: a ${error.code} user error with details ${JSON.stringify(error.details)}: ${undeclared.length > 0 ? `undeclared ${undeclared.join(', ')}` : ''}${missing.length > 0 ? ` missing ${missing.join(', ')}` : ''}`);
  }
}
