import { decodeEvent, encodeEvent, eventOf, EVENT_ENVELOPES, type DomainEvent } from '../src/shared/domain-event.js';
import { OrderStatus } from '../src/entities/order.entity.js';
import { buildOpenApiDocument } from '../src/rest/openapi/document.js';
import { eventSchemaName } from '../src/rest/responses/events.js';

/**
 * An event's envelope is described once (EVENT_ENVELOPES): what the bus carries, what a subscriber
 * reads back, what REST's feed and webhooks publish. Its time is text on the bus, the ISO 8601 text in UTC
 * with milliseconds that `emit` and the outbox write, and stays text.
 */
const placed: DomainEvent = {
  id: '42',
  type: 'order.placed',
  occurredAt: '2026-12-04T09:30:00.123Z',
  shopIds: [3],
  customerId: 7,
  payload: { orderId: 9, total: 1200, status: OrderStatus.PendingPayment },
};

it('reads back an event as the bus carries it, its time the same text', () => {
  expect(eventOf(placed)).toEqual(placed);
  expect(decodeEvent(encodeEvent(placed))).toEqual(placed);
  expect(typeof eventOf(placed)!.occurredAt).toBe('string');
});

it('reads nothing that is not an envelope of its type: an unknown type, a payload of another type, a time not as the bus writes it', () => {
  expect(eventOf({ ...placed, type: 'order.lost' })).toBeNull();
  expect(eventOf({ ...placed, type: 'stock.low' })).toBeNull();
  expect(eventOf({ ...placed, occurredAt: new Date('2026-12-04T09:30:00.123Z') })).toBeNull();
  expect(eventOf({ ...placed, occurredAt: '2026-12-04 09:30' })).toBeNull();
  expect(eventOf({ ...placed, customerId: undefined })).toBeNull();
  expect(eventOf(null)).toBeNull();
});

it('publishes each envelope over REST as it is: its time the Timestamp text, its fields and payload those of the schema', () => {
  const schemas = (buildOpenApiDocument() as { components: { schemas: Record<string, { properties: Record<string, { $ref?: string; properties?: object }>; required: string[] }> } }).components.schemas;
  for (const type of Object.keys(EVENT_ENVELOPES) as (keyof typeof EVENT_ENVELOPES)[]) {
    const envelope = schemas[eventSchemaName(type)];
    expect(envelope.properties.occurred_at, type).toEqual({ $ref: '#/components/schemas/Timestamp' });
    expect(envelope.required, type).toEqual(['id', 'type', 'occurred_at', 'shop_ids', 'customer_id', 'payload']);
    expect(Object.keys(envelope.properties.payload.properties!).length, type).toBe(Object.keys(EVENT_ENVELOPES[type].shape.payload.shape).length);
  }
});
