import { EventEmitter } from 'node:events';
import type { DomainEvent, EventPublisher } from './domain-event.js';

/** Delivers events to subscribers in this process. */
export class InProcessEventBus implements EventPublisher {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(events: DomainEvent[]): void {
    for (const event of events) this.emitter.emit('event', event);
  }

  /** Returns an unsubscribe function. */
  subscribe(listener: (event: DomainEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
