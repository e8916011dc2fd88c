import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STATUS } from '../src/error-codes.js';
import { USER_ERROR_CODES } from '../src/graphql/user-errors.js';

/**
 * Every code the storefront can meet has a sentence for shoppers (web/src/api/error-sentences.ts): a
 * new code without one fails here (and the web typecheck fails for a new user error code). Read as
 * text: the web module resolves its imports the bundler's way, not Node's.
 */
const source = readFileSync(join(process.cwd(), 'web/src/api/error-sentences.ts'), 'utf8');
const sentences = new Map([...source.matchAll(/^  ([A-Z_]+): '((?:[^'\\]|\\.)*)',$/gm)].map((m) => [m[1], m[2]]));

describe('storefront error sentences', () => {
  it('has a sentence for every code of the server and every user error code', () => {
    const codes = [...Object.keys(ERROR_STATUS), ...USER_ERROR_CODES, 'BAD_USER_INPUT', 'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED'];
    expect([...new Set(codes)].filter((code) => !sentences.has(code))).toEqual([]);
  });

  it('says each in words: no raw code, a full sentence', () => {
    expect(sentences.size).toBeGreaterThan(80);
    for (const [code, sentence] of sentences) {
      expect({ code, ok: /^[A-Z].*[.!]$/.test(sentence) && !/[A-Z]{2,}_[A-Z]/.test(sentence) }).toEqual({ code, ok: true });
    }
  });
});
