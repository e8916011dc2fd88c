import { sql } from 'kysely';
import { AppError, conflict, notFound, refused } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../../config.js';
import { typedSql } from '../../db/typed-sql.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { PaymentEvent, PaymentStatus } from '../../entities/payment.entity.js';
import { Role } from '../../entities/user.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requirePlatformPermission, requireUser } from '../../shared/guards.js';
import { grantOf, Permission } from '../../shared/permissions.js';
import { recordAnswer, releaseKey, replaceAnswer, withIdempotency } from '../../shared/idempotency.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { EventTypes } from '../events/event-types.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { orderViews, type OrderView } from '../orders/order-view.js';
import { prepareTransition, transitionRefused, withinPaymentWindow } from '../orders/order-lifecycle.js';
import { capturePayment, captureWalletPayment, insertPayment, movePayment, ORDER_PAYMENT, type PaymentRow, type PaymentTransition } from './payment-lifecycle.js';
import { paymentEventViews, paymentViews, type PaymentEventSource, type PaymentEventView, type PaymentMethodsView, type PaymentView } from './payment-view.js';
import { NotificationRejected, PAYMENT_DEVICES, type IncomingNotification, type PaymentProvider, type ProviderAnswer } from './provider.js';

/**
 * The payment module's use cases: the one owner of a payment's status and the only way an order is
 * paid. The wallet pays at once (the customer's request is the payment); a gateway's payment is
 * pending until a verified notification, or the provider's answer to a query, captures or fails it.
 * The browser's word is never taken: a customer coming back from a provider only reads the payment.
 */

const OrderRef = z.object({ orderId: id });

/** The orders of one checkout: each once, at most as many as a checkout can place (one per shop). */
const OrderIds = z
  .array(id)
  .min(1)
  .max(100)
  .refine((ids) => new Set(ids).size === ids.length, 'Each order may appear once')
  // The refinement has no JSON Schema: the document states it as the keyword it is.
  .meta({ uniqueItems: true });

export const PayCheckoutInput = z.strictObject({ orderIds: OrderIds });

/** What paying from the wallet can refuse: the order moves' own refusals, and a server that does not offer the wallet. */
const WALLET_REFUSALS = ['GROUP_ALREADY_JOINED', 'GROUP_FULL', 'GROUP_NOT_JOINABLE', 'INSUFFICIENT_FUNDS', 'NOT_FOUND', 'ORDER_STATE_CONFLICT', 'PAYMENT_METHOD_UNAVAILABLE'] as const;

export const payOrderRefusals = refusals(...WALLET_REFUSALS, 'IDEMPOTENCY_KEY_REUSED');

/**
 * Pays a pending order from the customer's available balance, or a group order's seat (the group's
 * module freezes the money and takes the seat; order `awaiting_group`): a wallet payment of one order.
 * Paying an order that is already paid answers the order without charging again.
 */
export async function payOrder(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<OrderView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  await prepareTransition(ctx, ORDER_PAYMENT, [orderId]);
  return withIdempotency(ctx, { scope: `order.pay:${orderId}`, key: idempotencyKey, request: { orderId } }, (idempotency) =>
    inTransaction(ctx, async (tx) => {
      await payFromWallet(tx, customer.userId, [orderId]);
      const [view] = await orderViews(tx.em, [orderId]);
      await recordAnswer(tx, idempotency, view);
      return view;
    }),
  );
}

export const payCheckoutRefusals = refusals(...WALLET_REFUSALS, 'IDEMPOTENCY_KEY_REUSED');

/**
 * One payment for one checkout from the available balance: every listed order of the customer in one
 * transaction, all or none. Each order still moves by itself through the lifecycle (`pay`, or
 * `paySeat` for a group order) and keeps its own ledger transfer (made by the move's subscribers); the
 * first refusal (short funds, an order cancelled meanwhile, another customer's order) rolls every move
 * back. Orders already paid are answered as they are and charged nothing, so a retry after a lost
 * answer is harmless even without a key.
 */
export async function payCheckout(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<OrderView[]> {
  const customer = requireCustomer(ctx);
  const orderIds = [...parseInput(PayCheckoutInput, input).orderIds].sort((a, b) => a - b);
  await prepareTransition(ctx, ORDER_PAYMENT, orderIds);
  return withIdempotency(ctx, { scope: 'checkout.pay', key: idempotencyKey, request: { orderIds } }, (idempotency) =>
    inTransaction(ctx, async (tx) => {
      await payFromWallet(tx, customer.userId, orderIds);
      const views = await orderViews(tx.em, orderIds);
      await recordAnswer(tx, idempotency, views);
      return views;
    }),
  );
}

/**
 * Locks the customer's orders (in id order, so two payments of overlapping checkouts queue instead of
 * deadlocking): another customer's or a missing one is 404. Answers their statuses.
 */
async function lockOwnOrders(tx: ServiceContext, customerId: number, orderIds: readonly number[]) {
  const rows = await typedSql(tx.em)
    .selectFrom('Order')
    .select(['id', 'status', 'total'])
    // Past its payment window (the order lifecycle's own rule, read at the same instant as its guard).
    .select((eb) => eb.not(withinPaymentWindow(eb, tx.config)).as('lapsed'))
    .where('id', 'in', [...orderIds])
    .where('customer', '=', customerId)
    .orderBy('id')
    .forUpdate()
    .execute();
  const missing = orderIds.find((orderId) => !rows.some((row) => row.id === orderId));
  if (missing !== undefined) throw notFound('Order', { order_id: missing });
  const lapsed = rows.find((row) => row.status === OrderStatus.PendingPayment && row.lapsed);
  if (lapsed) throw paymentWindowClosed(tx, lapsed.id);
  return rows;
}

/**
 * A pending order past its payment window: it can no longer be paid (the sweep cancels it), so it is
 * refused before any money moves, with the state it is in and the move refused.
 */
function paymentWindowClosed(tx: ServiceContext, orderId: number) {
  const minutes = tx.config.paymentWindowMinutes;
  return conflict('ORDER_STATE_CONFLICT', `Order ${orderId} can no longer be paid: its payment window (${minutes} minutes from when it was placed) has closed, and it is being cancelled`, {
    order_id: orderId,
    status: OrderStatus.PendingPayment,
    transition: 'pay',
  });
}

/**
 * The wallet payment, inside the caller's transaction: a captured payment of the orders still pending,
 * or nothing when none is. Several orders are locked in id order first, so two payments of
 * overlapping checkouts queue instead of deadlocking (one order needs no such care). The orders move
 * by their own guards; only when one did not move is it read, to tell why.
 */
async function payFromWallet(tx: ServiceContext, customerId: number, orderIds: readonly number[]): Promise<number | null> {
  provider(tx, 'wallet'); // offered here, or PAYMENT_METHOD_UNAVAILABLE
  if (orderIds.length > 1) await typedSql(tx.em).selectFrom('Order').select('id').where('id', 'in', [...orderIds]).where('customer', '=', customerId).orderBy('id').forUpdate().execute();
  const { paymentId, unmoved } = await captureWalletPayment(tx, customerId, orderIds);
  if (unmoved.length > 0) await explainUnmoved(tx, customerId, unmoved);
  return paymentId;
}

/**
 * Why orders of a wallet payment did not move: another customer's or a missing one is 404, one past
 * its payment window or cancelled is a conflict (thrown, so nothing of the payment stays). One already
 * paid (or its seat taken) is not an error: a retry after a lost answer charges nothing.
 */
async function explainUnmoved(tx: ServiceContext, customerId: number, orderIds: readonly number[]): Promise<void> {
  const rows = await typedSql(tx.em)
    .selectFrom('Order')
    .select(['id', 'status'])
    .select((eb) => eb.not(withinPaymentWindow(eb, tx.config)).as('lapsed'))
    .where('id', 'in', [...orderIds])
    .where('customer', '=', customerId)
    .orderBy('id')
    .execute();
  const missing = orderIds.find((orderId) => !rows.some((row) => row.id === orderId));
  if (missing !== undefined) throw notFound('Order', { order_id: missing });
  const lapsed = rows.find((row) => row.status === OrderStatus.PendingPayment && row.lapsed);
  if (lapsed) throw paymentWindowClosed(tx, lapsed.id);
  const stuck = rows.find((row) => row.status === OrderStatus.Cancelled || row.status === OrderStatus.PendingPayment);
  if (stuck) throw transitionRefused('pay', stuck.status);
}

function provider(ctx: ServiceContext, method: string): PaymentProvider {
  const found = ctx.wiring.paymentProviders[method as PaymentMethod];
  if (!found) throw refused('PAYMENT_METHOD_UNAVAILABLE', `Payment method ${method} is not offered here`, { method });
  return found;
}

const offeredMethods = (ctx: ServiceContext) => ctx.config.payments.methods.filter((m) => ctx.wiring.paymentProviders[m]);

/** The methods a customer may choose, in the configured order. */
export function paymentMethods(ctx: ServiceContext): PaymentMethodsView {
  return { methods: offeredMethods(ctx) };
}

export const StartPaymentInput = z
  .strictObject({
    orderIds: OrderIds,
    method: z.enum(PAYMENT_METHODS),
    /** The sandbox gateway only: its simulated customer declines. */
    simulateFailure: z.boolean().optional(),
    /** Where the customer pays: `mobile` gets a provider's page for phones (Alipay's mobile-web pay); default desktop. */
    device: z.enum(PAYMENT_DEVICES).optional(),
  })
  .refine((input) => input.simulateFailure === undefined || input.method === 'sandbox', { message: 'is for the sandbox gateway only', path: ['simulateFailure'] });

export const startPaymentRefusals = refusals(...WALLET_REFUSALS, 'PAYMENT_PROVIDER_UNAVAILABLE', 'IDEMPOTENCY_KEY_REUSED');

/**
 * Starts one payment for the listed orders (one checkout) with the chosen method. The wallet pays at
 * once (as `payCheckout`). A gateway: the payment is recorded pending in one short transaction, the
 * provider is called outside any transaction (never a lock held across the network), and its reference
 * and the customer's next step are stored. A provider that cannot be reached fails the payment
 * (502 PAYMENT_PROVIDER_UNAVAILABLE); the customer may start another.
 *
 * With an idempotency key the key is written with the pending payment, in its own transaction, so a
 * retry (a lost answer, a process killed while the provider was asked) never starts a second payment
 * at the provider: it answers the first one. Once the provider answered, the key's stored answer
 * becomes the payment with its next step, so a later retry replays exactly what the first request
 * answered. A start the provider refused frees the key with the payment's failure: the same key
 * may try again.
 */
export async function startPayment(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<PaymentView> {
  const customer = requireCustomer(ctx);
  const parsed = parseInput(StartPaymentInput, input);
  const orderIds = [...parsed.orderIds].sort((a, b) => a - b);
  const chosen = provider(ctx, parsed.method);
  await prepareTransition(ctx, ORDER_PAYMENT, orderIds);
  const request = { orderIds, method: parsed.method, simulateFailure: parsed.simulateFailure ?? false, device: parsed.device ?? 'desktop' };
  return withIdempotency(ctx, { scope: 'payment.start', key: idempotencyKey, request }, async (idempotency) => {
    // Nothing to collect (coupons paid it all): no gateway is asked; the orders are paid as the wallet pays.
    const due = (await typedSql(ctx.em).selectFrom('Order').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), eb.lit(0)).as('sum')).where('id', 'in', orderIds).where('customer', '=', customer.userId).where('status', '=', OrderStatus.PendingPayment).executeTakeFirstOrThrow()).sum;
    const free = parsed.method !== 'wallet' && Number(due) === 0;
    if (parsed.method === 'wallet' || free) {
      return inTransaction(ctx, async (tx) => {
        const paymentId = await payFromWallet(tx, customer.userId, orderIds);
        if (paymentId === null) throw transitionRefused('pay', OrderStatus.Paid);
        const [view] = await paymentViews(tx.em, [paymentId]);
        await recordAnswer(tx, idempotency, view);
        return view;
      });
    }
    const payment = await inTransaction(ctx, async (tx) => {
      const orders = await lockOwnOrders(tx, customer.userId, orderIds);
      const unpayable = orders.find((o) => o.status !== OrderStatus.PendingPayment);
      if (unpayable) throw transitionRefused('pay', unpayable.status);
      const inserted = await insertPayment(tx, customer.userId, parsed.method, orders);
      await recordAnswer(tx, idempotency, (await paymentViews(tx.em, [inserted.id]))[0]);
      return inserted;
    });
    let created;
    try {
      created = await chosen.create({ paymentId: payment.id, amount: payment.amount, currency: payment.currency, description: `Mallfront orders ${orderIds.join(', ')}`, simulateFailure: parsed.simulateFailure, device: parsed.device });
    } catch (error) {
      ctx.log.warn({ err: error, paymentId: payment.id, method: parsed.method }, 'payment provider refused or unreachable at create');
      await inTransaction(ctx, async (tx) => {
        if (await movePayment(tx, 'fail', payment.id, 'provider_unavailable')) announceFailure(tx, payment, 'failed', 'provider_unavailable');
        await recordEvent(tx, { paymentId: payment.id, provider: parsed.method, source: 'create', verified: false, outcome: 'provider_unavailable', raw: String(error instanceof Error ? error.message : error) });
        await releaseKey(tx, idempotency);
      });
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', 502, `The ${parsed.method} provider could not start the payment; try again`, { payment_id: payment.id, method: parsed.method });
    }
    return inTransaction(ctx, async (tx) => {
      await typedSql(tx.em).updateTable('Payment').set({ providerReference: created.reference, nextStep: created.nextStep, updatedAt: sql<Date>`now()` }).where('id', '=', payment.id).execute();
      const [view] = await paymentViews(tx.em, [payment.id]);
      await replaceAnswer(tx, idempotency, view);
      return view;
    });
  });
}

const PaymentRef = z.object({ paymentId: id });

export const getPaymentRefusals = refusals('NOT_FOUND');

/** A payment: the customer's own, or any for a platform admin; another customer's is 404. */
export async function getPayment(ctx: ServiceContext, input: unknown): Promise<PaymentView> {
  const actor = requireUser(ctx);
  const { paymentId } = parseInput(PaymentRef, input);
  const [view] = await paymentViews(ctx.em, [paymentId]);
  if (!view || (grantOf(actor, Permission.PlatformOrdersRead) !== 'platform' && view.customerId !== actor.userId)) throw notFound('Payment', { payment_id: paymentId });
  if (actor.role === Role.ShopOperator) throw notFound('Payment', { payment_id: paymentId });
  return view;
}

export const ReferenceInput = z.strictObject({ method: z.enum(PAYMENT_METHODS), providerReference: z.string().trim().min(1).max(255) });

export const findPaymentByReferenceRefusals = refusals('NOT_FOUND');

/** Platform admin: the payment a provider's reference names (a PaymentIntent id, a trade number), as a support desk looks one up. */
export async function findPaymentByReference(ctx: ServiceContext, input: unknown): Promise<PaymentView> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const { method, providerReference } = parseInput(ReferenceInput, input);
  const row = await typedSql(ctx.em).selectFrom('Payment').select('id').where('provider', '=', method).where('providerReference', '=', providerReference).executeTakeFirst();
  if (!row) throw notFound('Payment', { method });
  return (await paymentViews(ctx.em, [row.id]))[0];
}

export const paymentEventsRefusals = refusals('NOT_FOUND');

/** What the providers told us about a payment, oldest first (the customer's own payment, or any for an admin). */
export async function paymentEvents(ctx: ServiceContext, input: unknown): Promise<{ items: PaymentEventView[] }> {
  const payment = await getPayment(ctx, input);
  return { items: await paymentEventViews(ctx.em, payment.id) };
}

export const MethodRef = z.object({ method: z.enum(PAYMENT_METHODS) });

/**
 * The order moves' codes are listed because the moves can refuse (the code analysis follows them), but
 * a capture catches each order's refusal (payment-lifecycle.ts, `payEachOrder`): a verified
 * notification is answered 200 whatever became of its orders.
 */
export const receiveNotificationRefusals = refusals('NOTIFICATION_REJECTED', 'NOT_FOUND', 'GROUP_ALREADY_JOINED', 'GROUP_FULL', 'GROUP_NOT_JOINABLE', 'INSUFFICIENT_FUNDS');

/**
 * A provider's notification. Its signature is checked by the provider's own code; a forged or
 * unreadable one is recorded (unverified) and refused with 400, changing nothing. A verified one is
 * applied by `applyAnswer`: the answer says what we did (`outcome`), and `plainAnswer` is the word a
 * provider reads as "received" (Alipay's `success`), when it wants one instead of the JSON receipt.
 */
export async function receiveNotification(ctx: ServiceContext, input: unknown, notification: IncomingNotification): Promise<{ received: true; outcome: string; paymentId: number | null; plainAnswer?: string }> {
  const { method } = parseInput(MethodRef, input);
  const chosen = ctx.wiring.paymentProviders[method];
  if (!chosen || method === 'wallet') throw notFound('Payment method', { method });
  let answer: ProviderAnswer;
  try {
    answer = await chosen.verifyNotification(notification);
  } catch (error) {
    if (!(error instanceof NotificationRejected)) throw error;
    await inTransaction(ctx, (tx) => recordEvent(tx, { paymentId: null, provider: method, source: 'notification', verified: false, outcome: error.outcome, raw: notification.rawBody }));
    throw new AppError('NOTIFICATION_REJECTED', 400, `The notification did not verify: ${error.message}`, { method });
  }
  const applied = await applyAnswer(ctx, chosen, answer, 'notification');
  return { received: true, ...applied, ...(chosen.notificationAnswer ? { plainAnswer: chosen.notificationAnswer } : {}) };
}

/**
 * Acts on what a provider said about a payment (a verified notification or a query's answer), in one
 * transaction under the payment's row lock, so the same notification delivered many times at once is
 * applied once: the first capture moves the payment, the others find it captured ("duplicate"). An
 * amount or currency that differs from the payment's is recorded and refused; a failure after the
 * capture changes nothing. Every answer is recorded with its outcome.
 *
 * Answers about one payment that reach this process together take turns here first, holding no
 * connection while they wait: the ones behind a capture then find it done and are recorded without
 * the row lock (`settledOutcome`), instead of queueing on the lock, where a burst of redeliveries on a
 * busy machine would run into `lock_timeout` (409) and be sent again.
 */
export async function applyAnswer(ctx: ServiceContext, chosen: PaymentProvider, answer: ProviderAnswer, source: 'notification' | 'query'): Promise<{ outcome: string; paymentId: number | null }> {
  const key = `${chosen.method}:${answer.reference}`;
  const before = applying.get(key);
  const mine = (before ?? Promise.resolve()).then(() => applyAnswerNow(ctx, chosen, answer, source));
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  applying.set(key, settled);
  try {
    return await mine;
  } finally {
    if (applying.get(key) === settled) applying.delete(key);
  }
}

/** The answer being applied last in this process, by provider and reference: the next one waits for it. */
const applying = new Map<string, Promise<void>>();

async function applyAnswerNow(ctx: ServiceContext, chosen: PaymentProvider, answer: ProviderAnswer, source: 'notification' | 'query'): Promise<{ outcome: string; paymentId: number | null }> {
  const payments = typedSql(ctx.em).selectFrom('Payment').select(['id', 'status', 'amount', 'currency']).where('provider', '=', chosen.method);
  // A payment just started may not have its reference stored yet: the provider's echo of our id finds it.
  // One statement for both: read in two, a reference committed between them hid the payment from both
  // (CI saw a sandbox notification answered as an unknown payment, and the payment left pending).
  const { paymentId } = answer;
  const found = await payments
    .where((eb) =>
      paymentId ? eb.or([eb('providerReference', '=', answer.reference), eb.and([eb('id', '=', paymentId), eb('providerReference', 'is', null)])]) : eb('providerReference', '=', answer.reference),
    )
    .executeTakeFirst();
  const event = { provider: chosen.method, source, verified: true, providerEventId: answer.eventId, status: answer.status, amount: answer.amount, currency: answer.currency, raw: answer.raw };
  if (!found) {
    await inTransaction(ctx, (tx) => recordEvent(tx, { ...event, paymentId: null, outcome: 'unknown_payment' }));
    return { outcome: 'unknown_payment', paymentId: null };
  }
  // Past what the answer could change (a status read here only moves on from there): recorded, no lock.
  const already = matches(found, answer) ? settledOutcome(found.status, answer) : null;
  if (already) {
    await inTransaction(ctx, (tx) => recordEvent(tx, { ...event, paymentId: found.id, outcome: already }));
    return { outcome: already, paymentId: found.id };
  }
  if (answer.status === 'captured') {
    const orderIds = (await typedSql(ctx.em).selectFrom('PaymentOrder').select('order').where('payment', '=', found.id).execute()).map((r) => r.order);
    await prepareTransition(ctx, ORDER_PAYMENT, orderIds);
  }
  const outcome = await inTransaction(ctx, async (tx) => {
    const payment = await typedSql(tx.em)
      .selectFrom('Payment')
      .select(['id', 'customer', 'provider', 'status', 'amount', 'currency', 'providerReference'])
      .where('id', '=', found.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (payment.providerReference === null) {
      await typedSql(tx.em).updateTable('Payment').set({ providerReference: answer.reference }).where('id', '=', payment.id).execute();
    }
    const result = await decide(tx, chosen, payment, answer);
    await recordEvent(tx, { ...event, paymentId: payment.id, outcome: result });
    return result;
  });
  if (outcome === 'amount_mismatch') ctx.log.warn({ paymentId: found.id, answer: { amount: answer.amount, currency: answer.currency } }, 'payment notification refused: amount or currency differs');
  return { outcome, paymentId: found.id };
}

const OPEN = new Set<PaymentStatus>([PaymentStatus.Pending, PaymentStatus.Authorized]);

/** The answer's amount and currency, where it gives them, are the payment's. */
const matches = (payment: { amount: number; currency: string }, answer: ProviderAnswer) =>
  (answer.amount === null || answer.amount === payment.amount) && (answer.currency === null || answer.currency.toUpperCase() === payment.currency);

/**
 * What an answer comes to when the payment is already past it: a capture of a captured payment, or a
 * failure of one captured or closed. Null when the answer may still move the payment. A captured
 * payment never opens again and a closed one only moves by a capture, so an unlocked read suffices.
 */
function settledOutcome(status: PaymentStatus, answer: ProviderAnswer): 'duplicate' | 'ignored_after_capture' | null {
  if (answer.status === 'captured') return status === PaymentStatus.Captured ? 'duplicate' : null;
  if (answer.status === 'failed' || answer.status === 'cancelled') return OPEN.has(status) ? null : status === PaymentStatus.Captured ? 'ignored_after_capture' : 'duplicate';
  return null;
}

async function decide(tx: ServiceContext, chosen: PaymentProvider, payment: PaymentRow, answer: ProviderAnswer): Promise<string> {
  if (!matches(payment, answer)) return 'amount_mismatch';
  const settled = settledOutcome(payment.status, answer);
  if (settled) return settled;
  switch (answer.status) {
    case 'captured': {
      const result = await capturePayment(tx, payment, chosen, { late: !OPEN.has(payment.status) });
      if (!result) return 'ignored';
      emit(tx, {
        type: EventTypes.PAYMENT_CAPTURED, shopIds: [], customerId: payment.customer,
        payload: { paymentId: payment.id, method: chosen.method, amount: payment.amount, orderIds: [...result.paid, ...result.unpaid].sort((a, b) => a - b), unpaidOrderIds: result.unpaid },
      });
      return result.unpaid.length > 0 ? 'captured_orders_not_payable' : 'captured';
    }
    case 'authorized':
      return payment.status === PaymentStatus.Pending && (await movePayment(tx, 'authorize', payment.id)) ? 'authorized' : 'ignored';
    case 'failed':
    case 'cancelled': {
      const move: PaymentTransition = answer.status === 'failed' ? 'fail' : 'cancel';
      if (!(await movePayment(tx, move, payment.id, answer.reason ?? answer.status))) return 'ignored';
      announceFailure(tx, payment, answer.status, answer.reason ?? null);
      return answer.status;
    }
    case 'pending':
      return 'still_pending';
  }
}

/** A gateway payment ended without money (`payment.failed`, to its customer). */
function announceFailure(tx: ServiceContext, payment: { id: number; customer: number; provider: string; amount: number }, status: 'failed' | 'cancelled' | 'expired', reason: string | null): void {
  emit(tx, { type: EventTypes.PAYMENT_FAILED, shopIds: [], customerId: payment.customer, payload: { paymentId: payment.id, method: payment.provider, amount: payment.amount, status, reason } });
}

interface EventRecord {
  paymentId: number | null;
  provider: string;
  source: PaymentEventSource;
  verified: boolean;
  outcome: string;
  raw: string;
  providerEventId?: string | null;
  status?: string | null;
  amount?: number | null;
  currency?: string | null;
}

/** Keeps what a provider said (at most 64 KiB of it) with what we did. */
async function recordEvent(tx: ServiceContext, event: EventRecord): Promise<void> {
  tx.em.create(PaymentEvent, {
      payment: event.paymentId,
      provider: event.provider.slice(0, 20),
      source: event.source,
      providerEventId: event.providerEventId?.slice(0, 255) ?? null,
      status: event.status?.slice(0, 40) ?? null,
      amount: event.amount ?? null,
      currency: event.currency?.slice(0, 3) ?? null,
      verified: event.verified,
      outcome: event.outcome,
      raw: event.raw.slice(0, 65_536),
    });
  await tx.em.flush();
}

/**
 * The lost-notification sweep: gateway payments still open PAYMENT_QUERY_AFTER_SECONDS after they
 * started are queried at their provider and captured or failed from the answer (applied as a
 * notification would be, so a notification arriving at the same time is applied once). One the
 * provider never heard of (its start failed midway) or that is still pending after the payment
 * window is expired. Returns how many payments changed.
 */
export async function queryPendingPayments(ctx: ServiceContext, batchSize = 100): Promise<number> {
  const due = await typedSql(ctx.em)
    .selectFrom('Payment')
    .select(['id', 'provider', 'providerReference', 'createdAt', 'customer', 'amount'])
    .where('status', 'in', [PaymentStatus.Pending, PaymentStatus.Authorized])
    .where('provider', '<>', 'wallet')
    .where('createdAt', '<', sql<Date>`now() - make_interval(secs => ${ctx.config.payments.queryAfterSeconds})`)
    .orderBy('createdAt')
    .limit(batchSize)
    .execute();
  let changed = 0;
  const windowMs = ctx.config.paymentWindowMinutes * 60_000;
  for (const payment of due) {
    const chosen = ctx.wiring.paymentProviders[payment.provider];
    const lapsed = Date.now() - payment.createdAt.getTime() > windowMs;
    if (!chosen) continue;
    if (payment.providerReference === null) {
      if (await inTransaction(ctx, (tx) => expire(tx, payment, 'never_reached_provider'))) changed++;
      continue;
    }
    try {
      const answer = await chosen.query(payment.providerReference);
      const { outcome } = await applyAnswer(ctx, chosen, answer, 'query');
      if (outcome === 'still_pending' && lapsed) {
        if (await inTransaction(ctx, (tx) => expire(tx, payment, 'payment_window_over'))) changed++;
      } else if (!['still_pending', 'duplicate', 'ignored', 'amount_mismatch', 'unknown_payment'].includes(outcome)) changed++;
    } catch (error) {
      ctx.log.warn({ err: error, paymentId: payment.id }, 'payment query failed; tried again next sweep');
    }
  }
  return changed;
}

async function expire(tx: ServiceContext, payment: { id: number; customer: number; provider: string; amount: number }, reason: string): Promise<boolean> {
  if (!(await movePayment(tx, 'expire', payment.id, reason))) return false;
  announceFailure(tx, payment, 'expired', reason);
  return true;
}
