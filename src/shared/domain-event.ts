import { z } from './validate.js';

/**
 * Something that happened in a committed transaction. `shopIds` and `customerId` say who may see it:
 * a shop operator receives only events of their shop, a customer only their own.
 */
export interface DomainEvent {
  /** Unique per event, so a client can drop a duplicate (delivery is at least once after a reconnect). */
  id: string;
  type: string;
  occurredAt: string;
  shopIds: number[];
  customerId: number | null;
  payload: Record<string, unknown>;
}

export interface EventPublisher {
  publish(events: DomainEvent[]): void;
}

export interface EventSource {
  /** Calls `listener` with every event this process delivers; returns the unsubscribe function. */
  subscribe(listener: (event: DomainEvent) => void): () => void;
}

/** Where services publish and subscriptions listen: in-process for unit use, PostgreSQL across processes. */
export type EventBus = EventPublisher & EventSource;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_EVENT_BYTES = 7999;

export class EventTooLargeError extends Error {}

/** The wire form of an event (one NOTIFY payload); throws when it would not fit. */
export function encodeEvent(event: DomainEvent): string {
  const text = JSON.stringify(event);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_EVENT_BYTES) {
    throw new EventTooLargeError(
      `Event ${event.type} is ${bytes} bytes encoded; a NOTIFY holds at most ${MAX_EVENT_BYTES}. Keep payloads to ids and states.`,
    );
  }
  return text;
}

/** The wire form as read back: anything else on the channel (another writer) is not an event. */
const WireEvent = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  shopIds: z.array(z.number().int()),
  customerId: z.number().int().nullable(),
  payload: z.record(z.string(), z.unknown()),
});

/** Reads a wire event; null for anything that is not one. */
export function decodeEvent(text: string): DomainEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const event = WireEvent.safeParse(value);
  return event.success ? event.data : null;
}
