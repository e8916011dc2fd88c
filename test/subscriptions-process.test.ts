import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newShop, newCustomer } from './support/fixtures.js';
import { commitEvents, marker, orderPlaced, PAYLOAD_FIELDS, subscribe, waitFor, type LiveSubscription } from './support/subscriptions.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

/**
 * The compiled server (`npm start`'s code path, with its own events connection from main.ts) as a
 * separate OS process on the test app's database: an event committed in the test process reaches a
 * websocket subscriber of the other process.
 */
let t: TestApp;
let server: ServerProcess | undefined;
let sub: LiveSubscription | undefined;

beforeAll(async () => {
  t = await startTestApp();
  // production: no demo seed into the test database.
  server = await startServerProcess({ DATABASE_URL: t.dbUrl, NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'p'.repeat(48) });
});
afterAll(async () => {
  await sub?.close();
  if (server && server.child.exitCode === null) await server.stop();
  await t?.close();
});

it('delivers an event committed in one process to a subscriber of another server process, and stops cleanly', async () => {
  const admin = await newAdmin(t);
  const shop = await newShop(t);
  const customer = await newCustomer(t);
  sub = await subscribe(server!, `subscription { events { type shopIds customerId ${PAYLOAD_FIELDS} } }`, { token: admin.token });
  // The test cannot count the other process's subscribers: send markers until one arrives.
  await waitFor(async () => {
    await commitEvents(t, [marker(1)]);
    await new Promise((r) => setTimeout(r, 50));
    return sub!.results.length > 0;
  }, 10_000, 'first event through the server process');

  await commitEvents(t, [orderPlaced(shop.id, customer.id, 77)]);
  let event;
  do event = await sub.next('events');
  while (event.type === 'STOCK_LOW');
  expect(event).toEqual({ type: 'ORDER_PLACED', shopIds: [shop.id], customerId: customer.id, payload: { orderId: 77, total: 1000, status: 'PENDING_PAYMENT' } });

  expect(await server!.stop()).toBe(0);
  expect(server!.output()).not.toMatch(/"level":(50|60)/);
  await waitFor(() => sub!.error !== null || sub!.completed);
});
