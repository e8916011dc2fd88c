import type { Request } from 'express';
import { unsafeTextProblems, type InputProblem } from '../shared/unsafe-text.js';
import { idempotencyKeyProblem } from '../shared/idempotency.js';

/** The header a client names its retry key in (docs/api.md, "Retries"). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * The input rules every REST route applies before its service runs, with fields named as the request
 * spelled them (docs/api.md, "Conventions"):
 * - text holding NUL or a lone surrogate, anywhere in the path, the query or the body;
 * - a query parameter the operation does not take (each one named);
 * - on routes that take one, an `Idempotency-Key` that is empty or not 1 to 200 visible ASCII characters.
 * `query` is `req.query` as the caller read it once (Express 5 parses the query string on each read).
 */
export function requestProblems(
  req: Request,
  query: Request['query'],
  rules: { queryNames: ReadonlySet<string>; idempotent: boolean },
): InputProblem[] {
  const problems = unsafeTextProblems(req.params);
  unsafeTextProblems(query, '', problems);
  unsafeTextProblems(req.body, '', problems);
  for (const name of Object.keys(query)) {
    if (!rules.queryNames.has(name)) problems.push({ field: name, message: 'Unknown query parameter' });
  }
  const key = rules.idempotent ? req.header(IDEMPOTENCY_KEY_HEADER) : undefined;
  const keyProblem = key === undefined ? undefined : idempotencyKeyProblem(key);
  if (keyProblem) problems.push({ field: IDEMPOTENCY_KEY_HEADER, message: keyProblem });
  return problems;
}
