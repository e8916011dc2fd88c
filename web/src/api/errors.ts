import type { CombinedError } from 'urql';
import { sentenceOf } from './error-sentences';

/** A mutation's typed refusal of its input (its payload's `userErrors`): the same codes as the REST door. */
export interface UserErrorFields {
  code: string;
  message: string;
  field?: readonly string[] | null;
}

/**
 * What went wrong: a top-level error of the request (the caller, the network, a fault), or the user
 * errors of a mutation's payload.
 */
export type ApiRefusal = CombinedError | readonly UserErrorFields[];

const isUserErrors = (refusal: ApiRefusal): refusal is readonly UserErrorFields[] => Array.isArray(refusal);

/** A mutation's refusal: its top-level error, else its payload's user errors; null when it went through. */
export function refusalOf(error: CombinedError | undefined, payload: { userErrors: readonly UserErrorFields[] } | null | undefined): ApiRefusal | null {
  if (error) return error;
  return payload && payload.userErrors.length > 0 ? payload.userErrors : null;
}

/** The API's error code (`extensions.code` or the user error's `code`) of the first error, if any. */
export function errorCode(refusal: ApiRefusal): string | undefined {
  if (isUserErrors(refusal)) return refusal[0]?.code;
  const code = refusal.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What to tell the visitor: the storefront's sentence for the code (error-sentences.ts), the fields at
 * fault for a validation problem (their messages name what to fix), or a network problem.
 */
export function errorText(refusal: ApiRefusal): string {
  const code = errorCode(refusal);
  const sentence = code === 'VALIDATION_FAILED' ? undefined : sentenceOf(code);
  if (sentence) return sentence;
  if (isUserErrors(refusal)) {
    // A problem of one field names it, without the argument (`shippingAddress.region: Required`).
    return refusal.map((e) => (e.field && e.field.length > 1 ? `${e.field.slice(1).join('.')}: ${e.message}` : e.message)).join(' ');
  }
  const first = refusal.graphQLErrors[0];
  if (first) return first.message;
  return 'The shop cannot be reached right now. Check your connection and try again.';
}
