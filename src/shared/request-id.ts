import { randomUUID } from 'node:crypto';

/** A request id a client may send (`X-Request-Id`) to have it echoed; a UUID fits too. */
export const REQUEST_ID_PATTERN = /^[\w.-]{1,100}$/;

/** The client's request id when it fits the pattern, else a new UUID. */
export function requestId(header: unknown): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}
