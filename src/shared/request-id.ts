import { randomBytes, randomUUID } from 'node:crypto';

/** A request id a client may send (`X-Request-Id`) to have it echoed; a UUID fits too. */
export const REQUEST_ID_PATTERN = /^[\w.-]{1,100}$/;

/** The client's request id when it fits the pattern, else a new UUID. */
export function requestId(header: unknown): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}

/** W3C Trace Context's `traceparent`: version 00, a trace id and a parent span id (not all zeros), flags. */
const TRACEPARENT = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The request's trace id (32 lowercase hex digits, as W3C Trace Context spells it): the caller's, when
 * it sent a valid `traceparent` (the request is part of its trace); else the request id's UUID without
 * its dashes (no second random id per request); else a new one.
 */
export function traceIdOf(traceparent: unknown, requestId: string): string {
  if (typeof traceparent === 'string') {
    const match = TRACEPARENT.exec(traceparent);
    if (match) return match[1];
  }
  const lower = requestId.toLowerCase();
  return UUID.test(lower) && lower !== '00000000-0000-0000-0000-000000000000' ? lower.replaceAll('-', '') : randomBytes(16).toString('hex');
}
