import { EventEmitter } from 'node:events';
import type { DomainEvent, EventBus } from '../../shared/domain-event.js';

/** Delivers events to subscribers in this process. Alone it serves unit use (the demo seed); the outbox relay feeds one. */
export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  /** Nothing relays here: events reach this bus only through `publish`. */
  committed(): void {}
  deliveriesWritten(): void {}

  /** Hands events to this process's subscribers. */
  publish(events: DomainEvent[]): void {
    for (const event of events) this.emitter.emit('event', event);
  }

  subscribe(listener: (event: DomainEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** How many listeners are attached (tests wait for a subscription to be in place). */
  subscriberCount(): number {
    return this.emitter.listenerCount('event');
  }
}
