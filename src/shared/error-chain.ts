/** What a database error may carry, as `pg` reports it (SQLSTATE `code`, `detail`) and a message. */
export interface ErrorLink {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  constraint?: unknown;
}

/**
 * An error and the errors it wraps (`cause`), at most five deep: the ORM and Kysely wrap the
 * driver's error, whose SQLSTATE decides what the failure means.
 */
export function* errorChain(error: unknown): Generator<ErrorLink> {
  let link: unknown = error;
  for (let depth = 0; depth < 5 && typeof link === 'object' && link !== null; depth++) {
    yield link;
    link = (link as { cause?: unknown }).cause;
  }
}
