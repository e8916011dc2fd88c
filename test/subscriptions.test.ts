import { addToCart, checkoutBody, checkoutOk, payOk, shopWithProduct } from './support/shopping.js';
import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { expiredTokenFor, newAdmin, newCustomer, newOperator, newShop, type TestUser } from './support/fixtures.js';
import {
  commitEvents, connectRaw, marker, orderPlaced, PAYLOAD_FIELDS, subscribe, waitFor, type LiveSubscription, type TestEvent,
} from './support/subscriptions.js';
import { OrderStatus } from '../src/entities/order.entity.js';
import { GroupState } from '../src/entities/group-buy.entity.js';
import { EventTypes } from '../src/services/events/event-types.js';
import { emit, inTransaction } from '../src/shared/transaction.js';
import { emitStockLow } from '../src/services/inventory/stock-events.js';

/**
 * Two servers on one database, as two processes behind a load balancer: `a` and `b` have their own
 * pools, their own LISTEN connection and their own in-process bus, so an event reaches `b` only
 * through PostgreSQL.
 */
let a: TestApp;
let b: TestApp;
let admin: TestUser;
let shop1: { id: number };
let shop2: { id: number };
let operator1: TestUser;
let customer1: TestUser;
let customer2: TestUser;
const open: LiveSubscription[] = [];

const EVENT_FIELDS = `id type occurredAt shopIds customerId ${PAYLOAD_FIELDS}`;
const EVENTS = `subscription($types: [EventType!]) { events(types: $types) { ${EVENT_FIELDS} } }`;
const MY_ORDER_EVENTS = `subscription { myOrderEvents { ${EVENT_FIELDS} } }`;

async function live(t: TestApp, query: string, token: string, variables?: Record<string, unknown>) {
  const sub = await subscribe(t, query, { token, variables });
  open.push(sub);
  return sub;
}

beforeAll(async () => {
  a = await startTestApp();
  b = await startSecondApp(a);
  admin = await newAdmin(a);
  shop1 = await newShop(a);
  shop2 = await newShop(a);
  operator1 = await newOperator(a, shop1.id);
  customer1 = await newCustomer(a);
  customer2 = await newCustomer(a);
});
afterEach(async () => {
  for (const sub of open.splice(0)) await sub.close();
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('events across server processes', () => {
  it('delivers an event committed through one server to a subscriber connected to the other', async () => {
    const sub = await live(b, EVENTS, admin.token);
    await commitEvents(a, [orderPlaced(shop1.id, customer1.id, 101)]);
    const event = await sub.next('events');
    expect(event).toEqual({
      id: expect.any(String),
      type: 'ORDER_PLACED',
      occurredAt: expect.any(String),
      shopIds: [shop1.id],
      customerId: customer1.id,
      payload: { orderId: 101, total: 1000, status: 'PENDING_PAYMENT' },
    });
    // ...and to subscribers of the server that caused it, through the same path.
    const own = await live(a, EVENTS, admin.token);
    await commitEvents(a, [marker(1)]);
    expect((await own.next('events')).payload.skuId).toBe(1);
  });

  it('delivers the events of one transaction in order, each once', async () => {
    const sub = await live(b, EVENTS, admin.token);
    await commitEvents(a, [1, 2, 3, 4, 5].map((n) => orderPlaced(shop1.id, customer1.id, n)));
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await sub.next('events'));
    expect(got.map((e) => e.payload.orderId)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(got.map((e) => e.id)).size).toBe(5);
  });

  it('publishes nothing when the transaction rolls back', async () => {
    const sub = await live(b, EVENTS, admin.token);
    await expect(commitEvents(a, [orderPlaced(shop1.id, customer1.id, 666)], { rollback: true })).rejects.toThrow('rolled back on purpose');
    await commitEvents(a, [marker(2)]);
    // Events arrive in commit order: the first one after the rollback is the marker.
    expect((await sub.next('events')).payload.skuId).toBe(2);
  });

  it('publishes nothing for an event too large for one NOTIFY, and rolls its transaction back', async () => {
    const sub = await live(b, EVENTS, admin.token);
    const ctx = await a.context();
    await expect(
      inTransaction(ctx, async (tx) => {
        await tx.em.execute(`update shop set name = 'renamed by a doomed transaction' where id = ?`, [shop2.id]);
        emit(tx, {
          type: EventTypes.SHIPMENT_CREATED,
          shopIds: [],
          customerId: null,
          payload: { orderId: 1, shipmentId: 1, companyCode: 'SF', carrier: 'x'.repeat(9000), trackingNumber: 'T1' },
        });
      }),
    ).rejects.toThrow(/an event holds at most/);
    expect((await a.sql('select name from shop where id = ?', [shop2.id]))[0].name).not.toBe('renamed by a doomed transaction');
    await commitEvents(a, [marker(3)]);
    expect((await sub.next('events')).payload.skuId).toBe(3);
  });

  it('passes no event of a kind the schema does not know, nor one whose payload is not its type\'s shape (it could not be sent)', async () => {
    const sub = await live(b, EVENTS, admin.token);
    // Another writer on the channel: neither compiles as an event of ours.
    const unknownKind = { type: 'something.else', shopIds: [], customerId: null, payload: {} } as unknown as TestEvent;
    const wrongShape = { type: EventTypes.ORDER_PAID, shopIds: [], customerId: null, payload: { orderId: 'x', status: 'paid' } } as unknown as TestEvent;
    await commitEvents(a, [unknownKind, wrongShape, marker(4)]);
    expect((await sub.next('events')).payload.skuId).toBe(4);
  });

  it('filters by event type when asked', async () => {
    const sub = await live(b, EVENTS, admin.token, { types: ['STOCK_LOW'] });
    await commitEvents(a, [orderPlaced(shop1.id, customer1.id, 7), marker(5)]);
    expect((await sub.next('events')).type).toBe('STOCK_LOW');
  });
});

describe('events of real use cases', () => {
  it('delivers a checkout and a payment made through one server to the shop, the admin and the buyer on the other', async () => {
    const threshold = a.config.stockLowThreshold;
    const { shop, product } = await shopWithProduct(a, [{ price: 500, stock: threshold + 1 }]);
    const operator = await newOperator(a, shop.id);
    const buyer = await newCustomer(a, { available: 10_000, points: 0 });
    const forShop = await live(b, EVENTS, operator.token);
    const forAdmin = await live(b, EVENTS, admin.token, { types: ['ORDER_PLACED', 'ORDER_PAID', 'STOCK_LOW'] });
    const forBuyer = await live(b, MY_ORDER_EVENTS, buyer.token);

    await addToCart(a, buyer.token, product.skuIds[0], 2);
    const [order] = await checkoutOk(a, buyer.token);
    await payOk(a, buyer.token, order.id);

    const placed = { type: 'ORDER_PLACED', shopIds: [shop.id], customerId: buyer.id, payload: { orderId: order.id, total: 1000, status: 'PENDING_PAYMENT' } };
    const stockLow = { type: 'STOCK_LOW', shopIds: [shop.id], customerId: null, payload: { skuId: product.skuIds[0], productId: product.id, stock: threshold - 1, threshold } };
    const paid = { type: 'ORDER_PAID', shopIds: [shop.id], customerId: buyer.id, payload: { orderId: order.id, total: 1000, status: 'PAID' } };
    for (const sub of [forShop, forAdmin]) {
      expect(await sub.next('events')).toMatchObject(placed);
      expect(await sub.next('events')).toMatchObject(stockLow);
      expect(await sub.next('events')).toMatchObject(paid);
    }
    expect(await forBuyer.next('myOrderEvents')).toMatchObject(placed);
    expect(await forBuyer.next('myOrderEvents')).toMatchObject(paid);
  });

  it('delivers nothing for a checkout refused and rolled back (insufficient stock)', async () => {
    const { shop, product } = await shopWithProduct(a, [{ price: 500, stock: 1 }]);
    const operator = await newOperator(a, shop.id);
    const buyer = await newCustomer(a);
    const sub = await live(b, EVENTS, operator.token);
    await addToCart(a, buyer.token, product.skuIds[0], 2);
    expect((await a.api('POST', '/api/checkout', { token: buyer.token, body: checkoutBody() })).body.error.code).toBe('INSUFFICIENT_STOCK');
    await addToCart(a, buyer.token, product.skuIds[0], 1);
    const [order] = await checkoutOk(a, buyer.token);
    // In commit order: the first event this shop sees is the second checkout's.
    expect(await sub.next('events')).toMatchObject({ type: 'ORDER_PLACED', payload: { orderId: order.id } });
  });
});

describe('who receives what', () => {
  it("gives a shop operator only their own shop's events", async () => {
    const sub = await live(b, EVENTS, operator1.token);
    await commitEvents(a, [
      orderPlaced(shop2.id, customer1.id, 201),
      { type: EventTypes.REDEMPTION_CREATED, shopIds: [], customerId: customer1.id, payload: { redemptionId: 1, pointsProductId: 1, quantity: 1, points: 10 } },
      {
        type: EventTypes.GROUP_STATE_CHANGED,
        shopIds: [shop1.id, shop2.id],
        customerId: null,
        payload: { groupId: 9, activityId: 1, state: GroupState.Successful, paidSeats: 2, capacity: 2, orderIds: [] },
      },
      orderPlaced(shop1.id, customer1.id, 202),
    ]);
    expect((await sub.next('events')).payload.groupId).toBe(9);
    // The shop-2 order came before this one and was not delivered.
    expect((await sub.next('events')).payload.orderId).toBe(202);
  });

  it('gives a customer only the events of their own orders', async () => {
    const sub = await live(b, MY_ORDER_EVENTS, customer1.token);
    await commitEvents(a, [
      orderPlaced(shop1.id, customer2.id, 301),
      { type: EventTypes.STOCK_LOW, shopIds: [shop1.id], customerId: null, payload: { skuId: 1, productId: 1, stock: 2, threshold: 5 } },
      { type: EventTypes.REDEMPTION_CREATED, shopIds: [], customerId: customer1.id, payload: { redemptionId: 2, pointsProductId: 1, quantity: 1, points: 10 } },
      { type: EventTypes.ORDER_PAID, shopIds: [shop1.id], customerId: customer1.id, payload: { orderId: 302, total: 1000, status: OrderStatus.Paid } },
    ]);
    const event = await sub.next('myOrderEvents');
    expect(event).toMatchObject({ type: 'ORDER_PAID', customerId: customer1.id, payload: { orderId: 302 } });
  });

  it('refuses the dashboard feed to a customer and the order feed to others (FORBIDDEN)', async () => {
    const feed = await live(b, EVENTS, customer1.token);
    expect((await feed.nextResult()).errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    const mine = await live(b, MY_ORDER_EVENTS, admin.token);
    expect((await mine.nextResult()).errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    await waitFor(() => feed.completed && mine.completed);
  });

  it('refuses a bad value of `types` with the schema error', async () => {
    const sub = await live(b, EVENTS, admin.token, { types: ['NOT_A_TYPE'] });
    const result = await sub.nextResult();
    expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0].message).toMatch(/NOT_A_TYPE/);
  });
});

describe('stock low', () => {
  it('is emitted once, when a sale takes a SKU below STOCK_LOW_THRESHOLD, to admins and that shop', async () => {
    const threshold = a.config.stockLowThreshold;
    const sub = await live(b, `subscription { events(types: [STOCK_LOW]) { shopIds payload { __typename ... on StockLowEventPayload { skuId productId stock threshold } } } }`, operator1.token);
    const ctx = await a.context();
    await inTransaction(ctx, async (tx) => {
      emitStockLow(tx, [
        { skuId: 1, productId: 10, shopId: shop1.id, stock: threshold, quantity: 3 }, // not below
        { skuId: 2, productId: 10, shopId: shop1.id, stock: threshold - 2, quantity: 1 }, // already below before
        { skuId: 3, productId: 11, shopId: shop2.id, stock: threshold - 1, quantity: 1 }, // another shop
        { skuId: 4, productId: 12, shopId: shop1.id, stock: threshold - 1, quantity: 5 }, // crosses
      ]);
    });
    expect(await sub.next('events')).toEqual({ shopIds: [shop1.id], payload: { __typename: 'StockLowEventPayload', skuId: 4, productId: 12, stock: threshold - 1, threshold } });
  });
});

describe('subscriptions over HTTP', () => {
  it('are refused with BAD_REQUEST pointing to the websocket', async () => {
    const res = await b.gql('subscription { events { id } }', {}, admin.token);
    expect(res.status).toBe(400);
    expect(res.errors?.[0].extensions.code).toBe('BAD_REQUEST');
    expect(res.errors?.[0].message).toMatch(/websocket/);
  });
});

describe('websocket authentication', () => {
  it('accepts the token as `authorization: Bearer` or as `token` in connectionParams', async () => {
    expect(await connectRaw(b, { authorization: `Bearer ${admin.token}` })).toEqual({ acknowledged: true });
    expect(await connectRaw(b, { token: admin.token })).toEqual({ acknowledged: true });
  });

  it('refuses a connection with a bad, expired or missing token (close 4401 with the error code)', async () => {
    expect(await connectRaw(b, { authorization: 'Bearer not-a-token' })).toEqual({ acknowledged: false, code: 4401, reason: 'TOKEN_INVALID' });
    const expired = await expiredTokenFor(a, customer1.id);
    expect(await connectRaw(b, { token: expired })).toEqual({ acknowledged: false, code: 4401, reason: 'TOKEN_EXPIRED' });
    expect(await connectRaw(b, {})).toEqual({ acknowledged: false, code: 4401, reason: 'UNAUTHENTICATED' });
  });

  it('closes an open connection once its token is revoked (logout through another server) or expires', async () => {
    const c = await startSecondApp(a, { subscriptionRecheckSeconds: 1 });
    try {
      const [leaving, expiring, staying] = [await newCustomer(a), await newCustomer(a), await newCustomer(a)];
      const subs = [await subscribe(c, MY_ORDER_EVENTS, { token: leaving.token }), await subscribe(c, MY_ORDER_EVENTS, { token: expiring.token }), await subscribe(c, MY_ORDER_EVENTS, { token: staying.token })];
      expect((await a.api('POST', '/api/auth/logout', { token: leaving.token })).status).toBe(204);
      await a.sql(`update auth_token set expires_at = now() - interval '1 second' where user_id = ?`, [expiring.id]);
      await waitFor(() => subs[0].error !== null && subs[1].error !== null, 5000, 'revoked and expired connections closed');
      expect(subs[0].error).toMatchObject({ code: 4401, reason: 'TOKEN_INVALID' });
      expect(subs[1].error).toMatchObject({ code: 4401, reason: 'TOKEN_EXPIRED' });
      // The valid one is untouched through another round, and still receives its events.
      await new Promise((r) => setTimeout(r, 1200));
      expect(subs[2].error).toBeNull();
      await commitEvents(a, [{ type: EventTypes.ORDER_PAID, shopIds: [], customerId: staying.id, payload: { orderId: 1, total: 1, status: OrderStatus.Paid } }]);
      expect((await subs[2].next('myOrderEvents')).customerId).toBe(staying.id);
      await subs[2].close();
    } finally {
      await c.close();
    }
  });

  it('ends the subscriptions of a server that stops, and closes its sockets', async () => {
    const c = await startSecondApp(a);
    const sub = await subscribe(c, EVENTS, { token: admin.token });
    await c.close();
    await waitFor(() => sub.error !== null || sub.completed);
    expect(c.events.subscriberCount()).toBe(0);
    await sub.close();
  });
});

describe('the events connection', () => {
  it('reconnects by itself after its connection is killed, and then delivers again', async () => {
    const connectionsBefore = b.events.connections;
    await a.sql('select pg_terminate_backend(?)', [b.events.backendPid]);
    await waitFor(() => b.events.connections > connectionsBefore && b.events.isListening, 10_000, 'events connection restored');
    const sub = await live(b, EVENTS, admin.token);
    await commitEvents(a, [marker(6)]);
    expect((await sub.next('events')).payload.skuId).toBe(6);
  });

  it('keeps events committed while its own connection is down and sends them once it is back', async () => {
    const sub = await live(b, EVENTS, admin.token);
    const connectionsBefore = a.events.connections;
    await b.sql('select pg_terminate_backend(?)', [a.events.backendPid]);
    await commitEvents(a, [marker(7)]);
    await waitFor(() => a.events.connections > connectionsBefore, 10_000, 'events connection restored');
    expect((await sub.next('events', 10_000)).payload.skuId).toBe(7);
  });
});
