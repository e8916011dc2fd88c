import type { EntityManager } from '@mikro-orm/postgresql';
import { typedSql } from '../../db/typed-sql.js';
import { PAYMENT_METHODS } from '../../config.js';
import { PaymentStatus } from '../../entities/payment.entity.js';
import { z } from '../../shared/validate.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';

/**
 * A payment and what providers told us about it, as both doors answer them: REST publishes these
 * schemas. GraphQL's types stay written in resolvers/types (its next step is one object with every
 * kind's fields, nullable, where REST has a union; an event's source is text there), held to these
 * schemas by test/one-description.test.ts.
 */

/** The methods a customer may choose (GraphQL answers the list itself). */
export const PaymentMethodsView = z.strictObject({ methods: z.array(z.enum(PAYMENT_METHODS)) });
export type PaymentMethodsView = z.infer<typeof PaymentMethodsView>;

/** What the customer does next while the payment is pending: nothing, wait, go to the provider, or confirm with its client library. */
export const PaymentNextStepView = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('none') }),
    z.strictObject({ type: z.literal('wait'), message: z.string() }),
    z.strictObject({ type: z.literal('redirect'), url: z.string() }),
    z.strictObject({
      type: z.literal('client_secret'),
      clientSecret: z.string(),
      publishableKey: z.string().describe("The provider's publishable key for its client library (public by design)"),
    }),
  ])
  .describe('What the customer does next while a payment is pending');
export type PaymentNextStepView = z.infer<typeof PaymentNextStepView>;

export const PaymentView = z
  .strictObject({
    id,
    customerId: id,
    // The platform's payment desk reads it.
    customerName: z.string().describe("The customer's display name"),
    method: z.enum(PAYMENT_METHODS),
    status: z.enum(PaymentStatus),
    amount: money.describe('Minor units of `currency`'),
    currency: z.string(),
    capturedAmount: money,
    refundedAmount: money,
    providerReference: z.string().nullable().describe("The provider's id of the payment"),
    // Null once it is not pending.
    nextStep: PaymentNextStepView.nullable().describe('While pending: what the customer does next'),
    closeReason: z.string().nullable(),
    orderIds: z.array(id),
    createdAt: timestamp,
    updatedAt: timestamp,
    capturedAt: timestamp.nullable(),
    closedAt: timestamp.nullable(),
  })
  .describe("One payment of a checkout's orders, with one method");
export type PaymentView = z.infer<typeof PaymentView>;

/** Where an event came from: the provider called us, we asked, or its answer to starting. */
export const PAYMENT_EVENT_SOURCES = ['notification', 'query', 'create'] as const;
export type PaymentEventSource = (typeof PAYMENT_EVENT_SOURCES)[number];

export const PaymentEventView = z
  .strictObject({
    id,
    source: z.enum(PAYMENT_EVENT_SOURCES).describe('notification, query or create'),
    providerEventId: z.string().nullable(),
    status: z.string().nullable().describe('What the provider said: captured, failed, pending...'),
    amount: count.nullable(),
    currency: z.string().nullable(),
    verified: z.boolean().describe('The signature (or the answer) checked out'),
    outcome: z.string().describe('captured, duplicate, amount_mismatch, signature_invalid, unknown_payment, ...'),
    raw: z.string().describe('What the provider sent, as received'),
    createdAt: timestamp,
  })
  .describe('What a provider told us about a payment (a notification or an answer to a query), and what we did');
export type PaymentEventView = z.infer<typeof PaymentEventView>;

/** The payments, in the order of the ids (two queries whatever their number). */
export async function paymentViews(em: EntityManager, ids: readonly number[]): Promise<PaymentView[]> {
  if (ids.length === 0) return [];
  const db = typedSql(em);
  const rows = await db
    .selectFrom('Payment as p')
    .innerJoin('User as u', 'u.id', 'p.customer')
    .selectAll('p')
    .select('u.displayName as customerName')
    .where('p.id', 'in', [...ids])
    .execute();
  const orders = await db.selectFrom('PaymentOrder').select(['payment', 'order']).where('payment', 'in', [...ids]).orderBy('order').execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const open = row.status === PaymentStatus.Pending || row.status === PaymentStatus.Authorized;
    const view: PaymentView = {
      id: row.id,
      customerId: row.customer,
      customerName: row.customerName,
      method: row.provider,
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      capturedAmount: row.capturedAmount,
      refundedAmount: row.refundedAmount,
      providerReference: row.providerReference,
      // The column holds what a provider's answer said (provider.ts, NextStep).
      nextStep: open ? (row.nextStep as PaymentNextStepView | null) : null,
      closeReason: row.closeReason,
      orderIds: orders.filter((o) => o.payment === id).map((o) => o.order),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      capturedAt: row.capturedAt,
      closedAt: row.closedAt,
    };
    return [view];
  });
}

export async function paymentEventViews(em: EntityManager, paymentId: number): Promise<PaymentEventView[]> {
  const rows = await typedSql(em)
    .selectFrom('PaymentEvent')
    .select(['id', 'source', 'providerEventId', 'status', 'amount', 'currency', 'verified', 'outcome', 'raw', 'createdAt'])
    .where('payment', '=', paymentId)
    .orderBy('id')
    .execute();
  // The column is written only from PaymentEventSource (payment.service.ts, recordEvent).
  return rows.map((row): PaymentEventView => ({ ...row, source: row.source as PaymentEventSource }));
}
