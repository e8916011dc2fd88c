import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiJson } from '../src/rest/openapi/document.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { shopWithProduct } from './support/shopping.js';

/**
 * A client team's view of the REST door: types generated from the served OpenAPI document with
 * openapi-typescript, and a purchase written with openapi-fetch against them (generated-client/buy.ts),
 * compiled strictly and run against the test server. The types hold no `unknown`, and the script
 * needs no cast, `any` or `unknown` anywhere: the document alone types every request and answer.
 */
const OUT = fileURLToPath(new URL('../test-output/generated-client/', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./generated-client/buy.ts', import.meta.url));

let t: TestApp;
let types: string;
beforeAll(async () => {
  t = await startTestApp();
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  const served = await (await fetch(`${t.baseUrl}/api/openapi.json`)).text();
  expect(served).toBe(openApiJson());
  types = astToString(await openapiTS(served));
  await writeFile(`${OUT}api.ts`, types);
  await copyFile(SCRIPT, `${OUT}buy.ts`);
}, 120_000);
afterAll(() => t.close());

it('generates types without unknown', () => {
  expect(types).toContain('"/api/checkout"');
  // openapi-typescript closes every answer's `headers` with `[name: string]: unknown` for the headers a
  // document does not name (openapi-fetch hands over fetch's Headers anyway): not a typed field.
  // A provider's notification body (POST /api/payments/notifications/{method}) is the provider's own
  // JSON object, verified by its signature: the one body the document does not type field by field,
  // and no client of ours sends it (the providers do).
  const typed = types.replace(/^\s*\[name: string\]: unknown;\n/gm, '').replace(/^\s*\[key: string\]: unknown;\n/m, '');
  expect(types.match(/\[key: string\]: unknown;/g)).toHaveLength(1);
  expect(typed.match(/.*\bunknown\b.*/g) ?? []).toEqual([]);
  // Per-operation error codes survive as a union of the codes' own types, checkout's 409s for one,
  // each with its code as a literal and its details' keys (required ones required, no others).
  const schema = (name: string) => `components["schemas"]["${name}"]`;
  expect(types).toContain(`error: ${['CartChanged', 'Conflict', 'FlashSaleLimitChanged', 'FlashSaleStockChanged', 'GroupAlreadyJoined', 'ResourceLocked'].map((code) => schema(`${code}Error`)).join(' | ')};`);
  const cartChanged = types.slice(types.indexOf('CartChangedError: {'), types.indexOf('CartEmptyError: {'));
  expect(cartChanged).toContain('code: "CART_CHANGED";');
  expect(cartChanged).toMatch(/details: \{\s*customer_id: number;\s*\};/);
});

it('compiles the purchase strictly against them, with no cast, any or unknown in it', () => {
  const program = ts.createProgram([`${OUT}buy.ts`], {
    strict: true, noUncheckedIndexedAccess: false, target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], outDir: OUT, noEmitOnError: true,
  });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);

  const loose: string[] = [];
  const source = program.getSourceFile(`${OUT}buy.ts`)!;
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node)) loose.push(`cast: ${node.getText()}`);
    if (node.kind === ts.SyntaxKind.AnyKeyword || node.kind === ts.SyntaxKind.UnknownKeyword) loose.push(`${node.getText()} at ${node.parent.getText().slice(0, 80)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  expect(loose).toEqual([]);
});

it('buys as a customer against the test server: login, listing, cart, checkout with a key, payment, the order', async () => {
  const { product } = await shopWithProduct(t, [{ price: 1250, stock: 10 }]);
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const { stdout } = await promisify(execFile)(process.execPath, [`${OUT}buy.js`], {
    env: { ...process.env, BASE_URL: t.baseUrl, EMAIL: customer.email, PASSWORD },
    timeout: 60_000,
  });
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  expect(result).toEqual({
    orderId: expect.any(Number),
    status: 'paid',
    total: 2500,
    skuId: product.skuIds[0],
    quantity: 2,
    shippedTo: 'CN-SH',
    replayedSameOrder: true,
    paidStatus: 'paid',
    requestId: expect.stringMatching(/^[\w.-]{1,100}$/),
    refusedField: 'shipping_address.phone',
    missingCode: 'NOT_FOUND',
  });
  const orders = await t.sql<{ id: number; status: string }>('select id, status from shop_order where customer_id = ?', [customer.id]);
  expect(orders).toEqual([{ id: result.orderId, status: 'paid' }]);
  expect(await readFile(`${OUT}buy.js`, 'utf8')).toContain("api.POST('/api/checkout'");
}, 120_000);
