import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newShop, newCustomer, type TestUser } from './support/fixtures.js';
import { commitEvents, marker, orderPlaced, waitFor } from './support/subscriptions.js';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  // Behind a trusted proxy here, so that sockets can come from addresses of their own.
  t = await startTestApp({ maxSubscriptionsPerSocket: 3, maxSocketsPerUser: 3, maxAnonymousSocketsPerAddress: 4, trustProxy: ['loopback'] });
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

/** A raw graphql-transport-ws socket: signs in when told to, and reports how it ended. */
function rawSocket(address: string) {
  const socket = new WebSocket(t.wsUrl, 'graphql-transport-ws', { headers: { 'x-forwarded-for': address } });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  let acknowledged = false;
  socket.on('message', (data) => {
    if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') acknowledged = true;
  });
  return {
    socket,
    opened,
    closed,
    isOpen: () => socket.readyState === WebSocket.OPEN,
    async signIn(token: string) {
      await opened;
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
      await Promise.race([waitFor(() => acknowledged, 5000, 'connection_ack'), closed]);
      return acknowledged;
    },
  };
}

describe('websockets per user and per address', () => {
  it('lets one user hold MAX_SOCKETS_PER_USER sockets; the next is closed with 4429 TOO_MANY_CONNECTIONS and the others go on', async () => {
    const user = await newCustomer(t);
    const sockets = Array.from({ length: 3 }, (_, i) => rawSocket(`10.70.0.${i + 1}`));
    for (const s of sockets) expect(await s.signIn(user.token)).toBe(true);
    const extra = rawSocket('10.70.0.9');
    expect(await extra.signIn(user.token)).toBe(false);
    expect(await extra.closed).toEqual({ code: 4429, reason: 'TOO_MANY_CONNECTIONS' });
    expect(sockets.every((s) => s.isOpen())).toBe(true);

    // Another user is not affected, and a closed socket frees its place.
    const other = await newCustomer(t);
    const theirs = rawSocket('10.70.0.10');
    expect(await theirs.signIn(other.token)).toBe(true);
    sockets[0].socket.close(1000);
    await sockets[0].closed;
    const again = rawSocket('10.70.0.11');
    expect(await again.signIn(user.token)).toBe(true);
    for (const s of [...sockets, theirs, again]) s.socket.close(1000);
  });

  it('lets one address hold MAX_ANONYMOUS_SOCKETS_PER_ADDRESS sockets that have not signed in; the next is closed with 4429 at once', async () => {
    const user = await newCustomer(t);
    const address = '10.71.0.1';
    const waiting = Array.from({ length: 4 }, () => rawSocket(address));
    await Promise.all(waiting.map((s) => s.opened));
    const extra = rawSocket(address);
    expect(await extra.closed).toEqual({ code: 4429, reason: 'TOO_MANY_CONNECTIONS' });
    expect(waiting.every((s) => s.isOpen())).toBe(true);
    // Another address is counted apart.
    const elsewhere = rawSocket('10.71.0.2');
    expect(await elsewhere.signIn(user.token)).toBe(true);

    // A socket that signs in no longer counts as waiting.
    expect(await waiting[0].signIn(user.token)).toBe(true);
    const next = rawSocket(address);
    await next.opened;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(next.isOpen()).toBe(true);
    for (const s of [...waiting, elsewhere, next]) s.socket.close(1000);
  });
});
