import { readFile } from 'node:fs/promises';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode, type ErrorCodeDeclaration } from '../src/error-codes.js';
import { ERROR_DETAIL_KINDS, type ErrorDetailKey } from '../src/error-details.js';
import { UNIQUE_KEY_CODES } from '../src/errors.js';
import { buildOpenApiDocument } from '../src/rest/openapi/document.js';
import { codeSchemaName } from '../src/rest/openapi/error-schemas.js';

/**
 * Each code's declaration of its details (src/error-codes.ts) holds together: what the compiler holds
 * the throws to, and what the OpenAPI document tells clients, is one table. The answers themselves
 * are checked against the document by the contract hook of every REST test (test/support/contract.ts).
 */
const declarations = Object.entries(ERROR_CODES) as [ErrorCode, ErrorCodeDeclaration][];
const keysOf = ({ required = [], optional = [] }: ErrorCodeDeclaration): ErrorDetailKey[] => [...required, ...optional];

describe("error codes' details", () => {
  it('every code declares an error status and only keys that error-details.ts lists, each once', () => {
    expect(declarations.length).toBe(Object.keys(ERROR_STATUS).length);
    for (const [code, declaration] of declarations) {
      expect(ERROR_STATUS[code], code).toBe(declaration.status);
      expect(declaration.status >= 400 && declaration.status < 600, code).toBe(true);
      const keys = keysOf(declaration);
      expect(keys.filter((key) => !(key in ERROR_DETAIL_KINDS)), code).toEqual([]);
      expect(new Set(keys).size, `${code} names a key twice (or both required and optional)`).toBe(keys.length);
    }
  });

  it('every detail key is carried by some code', () => {
    const carried = new Set(declarations.flatMap(([, declaration]) => keysOf(declaration)));
    expect(Object.keys(ERROR_DETAIL_KINDS).filter((key) => !carried.has(key as ErrorDetailKey))).toEqual([]);
  });

  it('the codes a unique key answers (without details) require no key', () => {
    for (const code of UNIQUE_KEY_CODES) expect(ERROR_CODES[code] as ErrorCodeDeclaration, code).not.toHaveProperty('required');
  });

  it("every key docs/api.md's table of codes names for a code is one the code declares", async () => {
    const doc = await readFile(new URL('../docs/api.md', import.meta.url), 'utf8');
    const lines = doc.split('\n');
    const rows = lines.slice(lines.findIndex((line) => line.startsWith('| Code | Status |')) + 2);
    const named: string[] = [];
    for (const row of rows) {
      if (!row.startsWith('|')) break;
      const [codeCell, , when] = row.split('|').slice(1, -1);
      const code = /`(\w+)`/.exec(codeCell)![1];
      if (!(code in ERROR_CODES)) continue; // GraphQL's own (QUERY_TOO_DEEP...)
      const keys = [
        ...[...when.matchAll(/details\.(\w+)/g)].map((m) => m[1]),
        ...[...when.matchAll(/details: \{([^}]*)\}/g)].flatMap((m) => m[1].split(',').map((key) => key.trim().replace(/\?$/, ''))),
      ];
      for (const key of keys) named.push(`${code}.${key}`);
    }
    expect(named.length).toBeGreaterThan(40);
    const declared = new Set(declarations.flatMap(([code, declaration]) => keysOf(declaration).map((key) => `${code}.${key}`)));
    expect(named.filter((entry) => !declared.has(entry))).toEqual([]);
  });

  it("the OpenAPI document's object of each code it answers has exactly the declared keys, the required ones required", () => {
    const schemas = (buildOpenApiDocument() as { components: { schemas: Record<string, any> } }).components.schemas;
    const answered = Object.values(schemas.Error.properties.error.discriminator.mapping as Record<string, string>);
    expect(answered.length).toBeGreaterThan(80);
    for (const [code, declaration] of declarations) {
      const schema = schemas[codeSchemaName(code)];
      if (!schema) continue; // not answered over REST (a websocket's limits)
      expect(schema.properties.code.const).toBe(code);
      const details = schema.properties.details;
      const { required = [] } = declaration;
      if (keysOf(declaration).length === 0) {
        expect(details, code).toBeUndefined();
        continue;
      }
      expect(Object.keys(details.properties), code).toEqual(keysOf(declaration));
      expect(details.additionalProperties, code).toBe(false);
      expect(details.required ?? [], code).toEqual(required);
      expect(schema.required.includes('details'), code).toBe(required.length > 0);
    }
  });
});
