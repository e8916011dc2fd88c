/**
 * Something that happened in a committed transaction. `shopIds` and `customerId` say who may see it:
 * a shop operator receives only events of their shop, a customer only their own.
 */
export interface DomainEvent {
  type: string;
  occurredAt: string;
  shopIds: number[];
  customerId: number | null;
  payload: Record<string, unknown>;
}

export interface EventPublisher {
  publish(events: DomainEvent[]): void;
}
