import type { CombinedError } from 'urql';

/** The API's error code (`extensions.code`) of the first GraphQL error, if any. */
export function errorCode(error: CombinedError): string | undefined {
  const code = error.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What to tell the visitor: the API's own message (it is written for people), or a network problem. */
export function errorText(error: CombinedError): string {
  const first = error.graphQLErrors[0];
  if (first) return first.message;
  return 'The shop cannot be reached right now. Check your connection and try again.';
}
