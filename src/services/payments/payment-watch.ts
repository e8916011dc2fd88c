import { refusals } from '../../error-codes.js';
import { tracing } from '../../tracing.js';
import type { ServiceContext } from '../../shared/context.js';
import type { DomainEvent } from '../../shared/domain-event.js';
import { eventStream } from '../events/event-stream.js';
import { EventTypes } from '../events/event-types.js';
import { getPayment } from './payment.service.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { paymentViews, type PaymentView } from './payment-view.js';

const PAYMENT_EVENTS: ReadonlySet<string> = new Set([EventTypes.PAYMENT_CAPTURED, EventTypes.PAYMENT_FAILED, EventTypes.PAYMENT_REFUNDED]);

const PaymentRef = z.object({ paymentId: id });

export const watchPaymentRefusals = refusals('NOT_FOUND', 'SUBSCRIBER_TOO_SLOW');

/**
 * A payment as it changes, for the page that waits on a gateway: the payment as it is now, then
 * again each time its `payment.captured`, `payment.failed` or `payment.refunded` event is
 * published (after its transaction committed, through the outbox). The listener is attached before
 * the first read, so a capture landing between subscribing and that read is not missed: it shows in
 * the first answer, or in the one its event brings. Each answer is read from the database, never
 * taken from the event, and readable by whoever may read the payment (`getPayment`: its customer or
 * a platform admin; anyone else 404).
 */
export async function watchPayment(ctx: ServiceContext, input: unknown): Promise<AsyncIterableIterator<PaymentView>> {
  const { paymentId } = parseInput(PaymentRef, input);
  const live = eventStream(ctx.events, (event: DomainEvent) => PAYMENT_EVENTS.has(event.type) && (event.payload as { paymentId?: unknown }).paymentId === paymentId);
  let first: PaymentView;
  try {
    first = await getPayment(ctx, { paymentId });
  } catch (error) {
    await live.return();
    throw error;
  }
  let pendingFirst: PaymentView | null = first;
  // A fresh unit of work per answer: the subscription's entity manager would otherwise keep the first read.
  const read = async () => (await paymentViews(ctx.em.fork(), [first.id]))[0];
  // Each later answer is read when an event arrives, long after the subscription began and outside any
  // request: with tracing on, a trace of its own.
  const reread = () => (tracing ? tracing.inLinkedRoot('subscription event Subscription.paymentUpdates', { 'mallfront.payment.id': first.id }, [], read) : read());
  const updates: AsyncIterableIterator<PaymentView> = {
    async next() {
      if (pendingFirst) {
        const value = pendingFirst;
        pendingFirst = null;
        return { value, done: false };
      }
      const result = await live.next();
      if (result.done) return { value: undefined, done: true };
      return { value: await reread(), done: false };
    },
    async return() {
      pendingFirst = null;
      await live.return();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      await live.return();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return updates;
}
