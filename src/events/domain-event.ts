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

/** Reads a wire event; null for anything that is not one (another writer on the channel). */
export function decodeEvent(text: string): DomainEvent | null {
  let value: any;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const ok =
    value && typeof value === 'object' &&
    typeof value.id === 'string' && typeof value.type === 'string' && typeof value.occurredAt === 'string' &&
    Array.isArray(value.shopIds) && value.shopIds.every(Number.isInteger) &&
    (value.customerId === null || Number.isInteger(value.customerId)) &&
    value.payload && typeof value.payload === 'object' && !Array.isArray(value.payload);
  return ok ? (value as DomainEvent) : null;
}
