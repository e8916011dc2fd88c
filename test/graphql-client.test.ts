import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { shopWithProduct } from './support/shopping.js';

/**
 * A client team's view of the contract (issue 27, item 4): documents typed by graphql-codegen from
 * the committed schema.graphql, a client script compiled by tsc against those types alone (strict,
 * with no cast, no non-null assertion, no `any` and no `unknown` in its code), then run against the
 * test server: a query, a mutation refused with a typed user error, a subscription with a typed payload.
 */
const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const bin = (name: string) => `${root}node_modules/.bin/${name}`;
const CLIENT_FILES = ['test/graphql-client/client.ts', 'test/graphql-client/operations.ts'];

let t: TestApp;
beforeAll(async () => {
  await run(bin('graphql-codegen'), ['--config', 'test/graphql-client/codegen.yml', '--silent'], { cwd: root });
  t = await startTestApp();
}, 120_000);
afterAll(() => t?.close());

/** What the client's own code may not hold: every escape from the generated types. */
async function escapes(file: string): Promise<string[]> {
  const source = ts.createSourceFile(file, await readFile(`${root}${file}`, 'utf8'), ts.ScriptTarget.ES2023, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const at = () => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const')) found.push(`cast at ${at()}`);
    if (ts.isTypeAssertionExpression(node)) found.push(`cast at ${at()}`);
    if (ts.isNonNullExpression(node)) found.push(`non-null assertion at ${at()}`);
    if (node.kind === ts.SyntaxKind.AnyKeyword) found.push(`any at ${at()}`);
    if (node.kind === ts.SyntaxKind.UnknownKeyword) found.push(`unknown at ${at()}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

it('compiles the client against the generated types alone, with no cast, no non-null assertion, no any and no unknown', async () => {
  const found = (await Promise.all(CLIENT_FILES.map(escapes))).flat();
  expect(found).toEqual([]);
  // Strict, with noUncheckedIndexedAccess: every null the schema allows is handled.
  await expect(run(bin('tsc'), ['-p', 'test/graphql-client/tsconfig.json'], { cwd: root })).resolves.toBeDefined();
}, 120_000);

it('runs against the server: reads a product, gets a typed user error, and a subscription event with a typed payload', async () => {
  const { product } = await shopWithProduct(t, [{ price: 1_250, stock: 2 }]);
  const customer = await newCustomer(t);
  // Loaded by path at run time: the root typecheck does not follow it into gql/, which this file generates.
  const clientModule = './graphql-client/client.js';
  const { buyAsCustomer } = await import(clientModule);
  const result = await buyAsCustomer({ httpUrl: `${t.baseUrl}/graphql`, wsUrl: t.wsUrl }, { email: customer.email, password: PASSWORD }, product.id);
  const [order] = await t.sql<{ id: number }>('select id from shop_order where customer_id = ?', [customer.id]);
  expect(result).toEqual({
    productName: expect.any(String),
    refusal: { code: 'INSUFFICIENT_STOCK', field: null, skuId: product.skuIds[0], requested: 3, available: 2 },
    orderId: order.id,
    placed: { orderId: order.id, total: 2_500, status: 'PENDING_PAYMENT' },
  });
}, 60_000);
