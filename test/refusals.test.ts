import 'reflect-metadata';
import { UNIQUE_KEY_CODES } from '../src/errors.js';
import type { ErrorCode } from '../src/error-codes.js';
import { access, buildOpenApiDocument, operationErrorCodes } from '../src/rest/openapi/document.js';
import { Permission } from '../src/shared/permissions.js';
import { registeredOperations } from '../src/rest/openapi/operation.js';
import { codeReader, refusalLists, routeHandlers, type CodeReader } from './support/reachable-codes.js';

/**
 * The error codes the REST document lists are the ones the code can answer: for every operation,
 * every code reachable from its handler is documented, and no refusal is documented that its code
 * cannot reach (a code that only a unique key answers excepted). And each use case's refusal list
 * (`export const payOrderRefusals`) holds what `payOrder` can reach.
 */
let reader: CodeReader;
beforeAll(() => {
  reader = codeReader();
  buildOpenApiDocument();
}, 120_000);

/** Codes a declaration leaves to the door: access (401, 403) and input validation. */
const ACCESS_CODES = new Set<ErrorCode>([...access(Permission.Customer).errors, 'VALIDATION_FAILED']);
const ALWAYS_ALLOWED = new Set<ErrorCode>(UNIQUE_KEY_CODES);

const explain = (reached: Map<ErrorCode, string[]>, codes: ErrorCode[]) => codes.map((code) => `${code} via ${reached.get(code)?.join(' -> ') ?? '?'}`).join('\n  ');

it('documents every code each REST operation can answer, and no refusal it cannot', () => {
  const operations = new Map(registeredOperations().map((op) => [`${op.method} ${op.path}`, op]));
  const problems: string[] = [];
  let handlers = 0;
  for (const { path, handlers: methods } of routeHandlers(reader)) {
    for (const { method, handle } of methods) {
      handlers++;
      const op = operations.get(`${method} ${path}`);
      if (!op) {
        problems.push(`${method} ${path}: not registered`);
        continue;
      }
      const reached = reader.codesOf(handle);
      const documented = new Set(operationErrorCodes(method, op.doc));
      const missing = [...reached.keys()].filter((code) => !documented.has(code)).sort();
      if (missing.length > 0) problems.push(`${method.toUpperCase()} ${path} can answer undocumented codes:\n  ${explain(reached, missing)}`);
      const stale = (op.doc.errors ?? []).filter((code) => !reached.has(code) && !ALWAYS_ALLOWED.has(code));
      if (stale.length > 0) problems.push(`${method.toUpperCase()} ${path} documents codes its code cannot reach: ${stale.join(', ')}`);
    }
  }
  expect(handlers).toBe(operations.size);
  expect(problems).toEqual([]);
}, 120_000);

it('reads a route registered under several paths by one call (a template of literal-typed parts) once per path', () => {
  const paths = routeHandlers(reader).map((r) => r.path);
  for (const scope of ['/admin', '/merchant']) {
    for (const tail of ['', '/:id', '/:id/rotate-secret', '/:id/attempts', '/:id/redeliver', '/:id/ping']) expect(paths).toContain(`${scope}/webhooks${tail}`);
  }
});

it("holds in each use case's refusal list exactly the codes the use case can reach, and routes read those lists", async () => {
  const lists = refusalLists(reader);
  expect(lists.length).toBeGreaterThan(40);
  const problems: string[] = [];
  const declaredLists = new Set<readonly ErrorCode[]>();
  for (const { name, useCase, file } of lists) {
    if (!useCase) {
      problems.push(`${file}: ${name} names no use case in its file`);
      continue;
    }
    const module = (await import(`../${file.replace(/\.ts$/, '.js')}`)) as Record<string, readonly ErrorCode[] | undefined>;
    const list = module[name];
    if (!list) {
      problems.push(`${file}: ${name} is not exported`);
      continue;
    }
    declaredLists.add(list);
    const declared = new Set(list);
    const reached = reader.codesOf(useCase);
    const missing = [...reached.keys()].filter((code) => !declared.has(code) && !ACCESS_CODES.has(code)).sort();
    if (missing.length > 0) problems.push(`${file}: ${name} lacks codes the use case can answer:\n  ${explain(reached, missing)}`);
    const stale = [...declared].filter((code) => !reached.has(code) && !ALWAYS_ALLOWED.has(code));
    if (stale.length > 0) problems.push(`${file}: ${name} lists codes the use case cannot reach: ${stale.join(', ')}`);
  }
  for (const { method, path, doc } of registeredOperations()) {
    if (doc.errors && !declaredLists.has(doc.errors)) problems.push(`${method.toUpperCase()} ${path} lists its codes by hand instead of reading its use case's list`);
  }
  expect(problems).toEqual([]);
}, 120_000);
