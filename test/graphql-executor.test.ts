import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';
import { balanceOf, placeOrder, shopWithProduct } from './support/shopping.js';
import { USER_ERRORS } from './support/graphql.js';

/**
 * GRAPHQL_EXECUTOR: the compiled executor answers exactly what graphql-js's does: the same data, the
 * same errors (codes, paths, locations, details), the same HTTP status, for queries, refusals of
 * variables, resolver errors and mutations. The rest of the suite runs on the compiled executor
 * (the harness compiles at first sight); here each document also runs on the standard one.
 */
let compiled: TestApp;
let standard: TestApp;
let twice: TestApp;
beforeAll(async () => {
  compiled = await startTestApp({ graphqlExecutor: 'compiled', graphqlCompileAfter: 1 });
  standard = await startSecondApp(compiled, { graphqlExecutor: 'standard' });
  twice = await startSecondApp(compiled, { graphqlExecutor: 'compiled', graphqlCompileAfter: 2 });
});
afterAll(async () => {
  await twice.close();
  await standard.close();
  await compiled.close();
});

const LISTING = `query($size: Int!) {
  products(pageSize: $size) {
    total hasNextPage
    items { id name soldCount createdAt shop { id name profile { logoUrl } } skus { id price stock } ... on Product { __typename } }
  }
  first: products(pageSize: 1) { items { id } }
}`;

async function bothAnswer(query: string, variables?: Record<string, unknown>, token?: string) {
  const a = await standard.gql(query, variables, token);
  const b = await compiled.gql(query, variables, token);
  expect(b).toEqual(a);
  // A document run twice under GRAPHQL_COMPILE_AFTER 2: once by graphql-js, then compiled.
  expect(await twice.gql(query, variables, token)).toEqual(a);
  expect(await twice.gql(query, variables, token)).toEqual(a);
  return a;
}

it('answers a listing with nested objects, aliases, fragments and timestamps alike', async () => {
  await shopWithProduct(compiled, [{ price: 1500, stock: 4 }, { price: 900, stock: 2 }]);
  await shopWithProduct(compiled);
  const answer = await bothAnswer(LISTING, { size: 5 });
  expect(answer.status).toBe(200);
  expect(answer.data.products.items.length).toBe(2);
});

it('refuses bad variables alike: 400 BAD_USER_INPUT, no resolver run', async () => {
  for (const size of [5e-324, 'x', null]) {
    const answer = await bothAnswer(LISTING, { size });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  }
});

it('answers a resolver error alike: its code, path, location and details beside the rest of the data', async () => {
  const answer = await bothAnswer('{ product(id: 999999) { id } currency { code } }');
  expect(answer.errors).toEqual([expect.objectContaining({ path: ['product'], locations: [{ line: 1, column: 3 }], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
  expect(answer.data.currency.code).toBe('CNY');
});

it('answers the caller errors and mutation refusals alike, and runs a mutation once', async () => {
  const customer = await newCustomer(compiled, { available: 10_000, points: 0 });
  const { product } = await shopWithProduct(compiled, [{ price: 1000, stock: 5 }]);
  const order = await placeOrder(compiled, customer.token, product.skuIds[0], 1);
  const pay = `mutation($input: PayOrderInput!) { payOrder(input: $input) { order { id status } ${USER_ERRORS} } }`;
  const unauthenticated = await bothAnswer(pay, { input: { orderId: order.id } });
  expect(unauthenticated.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  const missing = await bothAnswer(pay, { input: { orderId: 999999 } }, customer.token);
  expect(missing.data.payOrder.userErrors[0].code).toBe('NOT_FOUND');

  // The same payment through each executor: the first pays, every later one answers the paid order.
  const results = [];
  for (const app of [compiled, standard, twice]) results.push(await app.gql(pay, { input: { orderId: order.id } }, customer.token));
  for (const result of results) expect(result.data.payOrder).toEqual({ order: { id: order.id, status: 'PAID' }, userErrors: [] });
  expect(await balanceOf(compiled, customer.id, 'available')).toBe(10_000 - order.total);
});
