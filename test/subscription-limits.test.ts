import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newShop, newCustomer, type TestUser } from './support/fixtures.js';
import { commitEvents, marker, orderPlaced, waitFor } from './support/subscriptions.js';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ maxSubscriptionsPerSocket: 3 });
  admin = await newAdmin(t);
});
afterAll(() => t.close());

const EVENTS = 'subscription { events { id type } }';

/** One subscription on a shared client (one websocket), collecting what arrives. */
function subscribeOn(client: Client, query: string, variables?: Record<string, unknown>) {
  const sub = { results: [] as ExecutionResult<any>[], error: null as any, stop: () => {} };
  sub.stop = client.subscribe({ query, variables }, {
    next: (result) => void sub.results.push(result as ExecutionResult<any>),
    error: (error) => void (sub.error = error),
    complete: () => {},
  });
  return sub;
}

function socketClient(token: string): Client {
  return createClient({ url: t.wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
}

describe('one websocket', () => {
  it('holds at most MAX_SUBSCRIPTIONS_PER_SOCKET subscriptions: the next one gets TOO_MANY_SUBSCRIPTIONS, and an event is sent once per subscription', async () => {
    const client = socketClient(admin.token);
    try {
      const before = t.events.subscriberCount();
      const allowed = [subscribeOn(client, EVENTS), subscribeOn(client, EVENTS), subscribeOn(client, EVENTS)];
      await waitFor(() => t.events.subscriberCount() === before + 3, 5000, 'three subscriptions in place');
      const extra = subscribeOn(client, EVENTS);
      await waitFor(() => extra.error !== null, 5000, 'the fourth refused');
      expect(extra.error).toEqual([expect.objectContaining({ extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429, details: { limit: 3 } } })]);

      const shop = await newShop(t);
      const customer = await newCustomer(t);
      await commitEvents(t, [orderPlaced(shop.id, customer.id, 1), marker(1)]);
      await waitFor(() => allowed.every((s) => s.results.length === 2), 5000, 'both events on each subscription');
      expect(allowed.map((s) => s.error)).toEqual([null, null, null]);

      // A subscription that ends frees its place.
      allowed[0].stop();
      await waitFor(() => t.events.subscriberCount() === before + 2, 5000, 'one released');
      const again = subscribeOn(client, EVENTS);
      await waitFor(() => t.events.subscriberCount() === before + 3, 5000, 'a new one in place');
      expect(again.error).toBeNull();
    } finally {
      await client.dispose();
    }
  });

  it('refuses NUL in an operation variable like the HTTP door does', async () => {
    const client = socketClient(admin.token);
    try {
      const sub = subscribeOn(client, 'query($slug: String!) { shop(slug: $slug) { id } }', { slug: 'a\u0000b' });
      await waitFor(() => sub.error !== null, 5000, 'refused');
      expect(sub.error).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'VALIDATION_FAILED', details: { problems: [{ field: 'slug', message: expect.any(String) }] } }) })]);
    } finally {
      await client.dispose();
    }
  });
});
