import { Client, fetchExchange } from '@urql/core';
import { createClient as createWsClient } from 'graphql-ws';
import { print } from 'graphql';
import WebSocket from 'ws';
import { Checkout, MyOrderEvents, Product, SetCartItem, SignIn } from './operations.js';
import type { MyOrderEventsSubscription, MyOrderEventsSubscriptionVariables, OrderStatus, UserErrorCode } from './gql/graphql.js';

type OrderPlacedEventPayload = Extract<MyOrderEventsSubscription['myOrderEvents']['payload'], { __typename: 'OrderPlacedEventPayload' }>;

/**
 * A client of the GraphQL API written against the generated types only: no cast, no `unknown`
 * (test/graphql-client.test.ts compiles it with tsc, then runs it against the test server). A
 * customer signs in, reads a product, is refused a checkout of more than the stock (a typed user
 * error), checks out what there is, and sees the order placed on their subscription (a typed payload).
 */
export interface BuyerRun {
  productName: string;
  refusal: { code: UserErrorCode; field: readonly string[] | null; skuId: number | null; requested: number | null; available: number | null };
  orderId: number;
  placed: { orderId: number; total: number; status: OrderStatus };
}

export interface Endpoint {
  httpUrl: string;
  wsUrl: string;
}

const ADDRESS = { recipient: 'Typed Client', phone: '+86 138 0000 0001', region: 'CN_SH', address: '1 Schema Road, Shanghai' } as const;

function httpClient(url: string, token: string | null): Client {
  return new Client({
    url,
    exchanges: [fetchExchange],
    preferGetMethod: false,
    fetchOptions: () => (token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
}

/** The first ORDER_PLACED event of the customer's own order feed after `act`, with its typed payload. */
async function nextOrderPlaced(endpoint: Endpoint, token: string, act: () => Promise<void>): Promise<OrderPlacedEventPayload> {
  const ws = createWsClient({ url: endpoint.wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
  const variables: MyOrderEventsSubscriptionVariables = { types: ['ORDER_PLACED'] };
  try {
    const events = ws.iterate<MyOrderEventsSubscription>({ query: print(MyOrderEvents), variables });
    const first = events.next();
    // The server listens from the subscribe message on; give it the moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await act();
    for (let next = await first; !next.done; next = await events.next()) {
      if (next.value.errors) throw new Error(next.value.errors.map((e) => e.message).join('; '));
      const payload = next.value.data?.myOrderEvents.payload;
      if (payload?.__typename === 'OrderPlacedEventPayload') return payload;
    }
    throw new Error('the subscription ended before the event');
  } finally {
    await ws.dispose();
  }
}

export async function buyAsCustomer(endpoint: Endpoint, credentials: { email: string; password: string }, productId: number): Promise<BuyerRun> {
  const anonymous = httpClient(endpoint.httpUrl, null);
  const signedIn = await anonymous.mutation(SignIn, { input: credentials }).toPromise();
  const session = signedIn.data?.login.session;
  if (!session) throw new Error(`sign-in refused: ${signedIn.error?.message ?? signedIn.data?.login.userErrors.map((e) => e.code).join(', ')}`);
  const client = httpClient(endpoint.httpUrl, session.token);

  const read = await client.query(Product, { id: productId }).toPromise();
  const product = read.data?.product;
  const sku = product?.skus[0];
  if (!product || !sku) throw new Error(`no product ${productId}: ${read.error?.message ?? 'null'}`);

  await client.mutation(SetCartItem, { input: { skuId: sku.id, quantity: sku.stock + 1 } }).toPromise();
  const refused = await client.mutation(Checkout, { input: { shippingAddress: ADDRESS } }).toPromise();
  const userError = refused.data?.checkout.userErrors[0];
  if (!userError) throw new Error('a checkout of more than the stock was not refused');

  const placed = await nextOrderPlaced(endpoint, session.token, async () => {
    await client.mutation(SetCartItem, { input: { skuId: sku.id, quantity: sku.stock } }).toPromise();
    const checkout = await client.mutation(Checkout, { input: { shippingAddress: ADDRESS } }).toPromise();
    if (!checkout.data?.checkout.orders) throw new Error(`checkout refused: ${checkout.error?.message ?? checkout.data?.checkout.userErrors.map((e) => e.code).join(', ')}`);
  });

  return {
    productName: product.name,
    refusal: {
      code: userError.code,
      field: userError.field ?? null,
      skuId: userError.details?.skuId ?? null,
      requested: userError.details?.requested ?? null,
      available: userError.details?.available ?? null,
    },
    orderId: placed.orderId,
    placed: { orderId: placed.orderId, total: placed.total, status: placed.status },
  };
}
