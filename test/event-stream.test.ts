import type { GraphQLContext } from '../src/resolvers/graphql-context.js';
import { InProcessEventBus } from '../src/services/events/in-process-bus.js';
import { eventStream } from '../src/services/events/event-stream.js';
import type { DomainEvent } from '../src/shared/domain-event.js';
import { OrderStatus } from '../src/entities/order.entity.js';
import { perEventContext } from '../src/resolvers/events.resolver.js';
import type { ServiceContext } from '../src/shared/context.js';

let seq = 0;
const event = (shopIds: number[] = [1]): DomainEvent => ({
  id: `e${++seq}`, type: 'order.placed', occurredAt: new Date().toISOString(), shopIds, customerId: null, payload: { orderId: seq, total: 100, status: OrderStatus.PendingPayment },
});

describe('subscription event streams', () => {
  it('listens from creation, so an event published before the first next() is not missed', async () => {
    const bus = new InProcessEventBus();
    const stream = eventStream(bus, () => true);
    const e = event();
    bus.publish([e]);
    expect(await stream.next()).toEqual({ value: e, done: false });
    await stream.return();
  });

  it('passes only accepted events, in order', async () => {
    const bus = new InProcessEventBus();
    const stream = eventStream(bus, (e) => e.shopIds.includes(2));
    const [x, y, z] = [event([1]), event([2]), event([2, 3])];
    bus.publish([x, y, z]);
    expect((await stream.next()).value).toBe(y);
    expect((await stream.next()).value).toBe(z);
    await stream.return();
  });

  it('releases its listener at once on return(), ending a pending next()', async () => {
    const bus = new InProcessEventBus();
    const stream = eventStream(bus, () => true);
    const pending = stream.next();
    expect(bus.subscriberCount()).toBe(1);
    await stream.return();
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
    expect(bus.subscriberCount()).toBe(0);
  });

  it('ends a subscriber that falls too far behind with SUBSCRIBER_TOO_SLOW', async () => {
    const bus = new InProcessEventBus();
    const stream = eventStream(bus, () => true, 3);
    bus.publish([event(), event(), event(), event()]);
    await expect(stream.next()).rejects.toMatchObject({ code: 'SUBSCRIBER_TOO_SLOW', status: 503 });
    expect(bus.subscriberCount()).toBe(0);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('gives each event its own service context: a new entity manager fork, the same actor', async () => {
    const bus = new InProcessEventBus();
    let forks = 0;
    const em = { fork: () => ({ fork: em.fork, n: ++forks }) };
    const log = { child: () => log };
    const base = { em, log, requestId: 'ws-1', actor: { userId: 7 } } as unknown as ServiceContext;
    const context = { ctx: base } as unknown as GraphQLContext;
    const stream = perEventContext(context, eventStream(bus, () => true));
    bus.publish([event(), event()]);
    await stream.next();
    const first = context.ctx;
    await stream.next();
    const second = context.ctx;
    expect(first.em).not.toBe(base.em);
    expect(second.em).not.toBe(first.em);
    expect([first.requestId, second.requestId]).toEqual(['ws-1:1', 'ws-1:2']);
    expect(second.actor).toBe(base.actor);
    await stream.return!();
    expect(bus.subscriberCount()).toBe(0);
  });
});
