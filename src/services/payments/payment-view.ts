import type { EntityManager } from '@mikro-orm/postgresql';
import { typedSql } from '../../db/typed-sql.js';
import type { PaymentMethod } from '../../config.js';
import type { NextStep } from './provider.js';
import { PaymentStatus } from '../../entities/payment.entity.js';

/** A payment as both doors answer it. */
export interface PaymentView {
  id: number;
  customerId: number;
  /** The customer's display name (the platform's payment desk reads it). */
  customerName: string;
  method: PaymentMethod;
  status: PaymentStatus;
  amount: number;
  currency: string;
  capturedAmount: number;
  refundedAmount: number;
  providerReference: string | null;
  /** What the customer does next while the payment is pending (null once it is not). */
  nextStep: NextStep | null;
  closeReason: string | null;
  orderIds: number[];
  createdAt: Date;
  updatedAt: Date;
  capturedAt: Date | null;
  closedAt: Date | null;
}

/** One thing a provider told us about a payment, and what we did. */
export interface PaymentEventView {
  id: number;
  source: string;
  providerEventId: string | null;
  status: string | null;
  amount: number | null;
  currency: string | null;
  verified: boolean;
  outcome: string;
  raw: string;
  createdAt: Date;
}

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
    return [{
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
      nextStep: open ? (row.nextStep as NextStep | null) : null,
      closeReason: row.closeReason,
      orderIds: orders.filter((o) => o.payment === id).map((o) => o.order),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      capturedAt: row.capturedAt,
      closedAt: row.closedAt,
    }];
  });
}

export async function paymentEventViews(em: EntityManager, paymentId: number): Promise<PaymentEventView[]> {
  return typedSql(em)
    .selectFrom('PaymentEvent')
    .select(['id', 'source', 'providerEventId', 'status', 'amount', 'currency', 'verified', 'outcome', 'raw', 'createdAt'])
    .where('payment', '=', paymentId)
    .orderBy('id')
    .execute();
}
