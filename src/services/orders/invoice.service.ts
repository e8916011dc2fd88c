import { conflict, notFound, refused } from '../../errors.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { sql } from 'kysely';
import { opt, toDate } from '../../shared/values.js';
import { typedSql } from '../../db/typed-sql.js';
import { Invoice } from '../../entities/invoice.entity.js';
import { PAID_STATES } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { netPaid } from './net-paid.js';
import { id, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { refusals } from '../../error-codes.js';
import { id as viewId, money, timestamp } from '../../shared/view-fields.js';

/**
 * An order's invoice. It exists to be asked for once the order is paid: `status` is `not_issued` and
 * `invoiceNo` null until the shop issues it, then `issued` with a number taken at issue time. REST
 * publishes this schema and GraphQL's type is made from it.
 */
export const InvoiceView = z.strictObject({
  orderId: viewId,
  status: z.enum(['not_issued', 'issued']),
  invoiceNo: z.string().nullable().describe('Set when the shop issues the invoice'),
  title: z.string().optional(),
  taxNumber: z.string().optional(),
  amount: money,
  issuedAt: timestamp.optional(),
});
export type InvoiceView = z.infer<typeof InvoiceView>;

export const IssueInput = z.strictObject({
  orderId: id,
  title: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(200).optional(),
  taxNumber: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(40).optional(),
});
const OrderRef = z.object({ orderId: id });

type IssuedInvoice = Pick<Invoice, 'invoiceNo' | 'title' | 'taxNumber' | 'amount' | 'issuedAt'>;

function view(orderId: number, total: number, invoice?: IssuedInvoice): InvoiceView {
  if (!invoice) return { orderId, status: 'not_issued', invoiceNo: null, amount: total };
  return {
    orderId,
    status: 'issued',
    invoiceNo: invoice.invoiceNo,
    title: invoice.title,
    taxNumber: opt(invoice.taxNumber),
    amount: invoice.amount,
    issuedAt: invoice.issuedAt,
  };
}

/** Invoice numbers: `MF`, the year, then the sequence's next value; one clock (the database's) for the number and the date. */
const NEXT_INVOICE = sql<string>`'MF' || to_char(now(), 'YYYY') || lpad(nextval('invoice_no_seq')::text, 8, '0')`;

export const issueInvoiceRefusals = refusals('INVOICE_ALREADY_ISSUED', 'INVOICE_NOT_AVAILABLE', 'NOT_FOUND');

/** The shop issues the invoice of a paid (or later) order, once. */
export async function issueInvoice(ctx: ServiceContext, input: unknown): Promise<InvoiceView> {
  const operator = requireShopPermission(ctx, Permission.ShopInvoicesIssue);
  const data = parseInput(IssueInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    // The invoice is for what the customer finally paid: the total less refunds completed so far.
    const order = await db
      .selectFrom('Order as o')
      .innerJoin('User as u', 'u.id', 'o.customer')
      .select((eb) => ['o.status', 'u.displayName', netPaid({ id: eb.ref('o.id'), total: eb.ref('o.total') }).as('netPaid')])
      .where('o.id', '=', data.orderId)
      .where('o.shop', '=', operator.shopId)
      .executeTakeFirst();
    if (!order) throw notFound('Order', { order_id: data.orderId });
    if (!PAID_STATES.includes(order.status)) throw refused('INVOICE_NOT_AVAILABLE', 'An invoice can be issued only for a paid order', { status: order.status });
    const next = await db.selectNoFrom([NEXT_INVOICE.as('invoiceNo'), sql<string>`now()`.as('now')]).executeTakeFirstOrThrow();
    const invoice = tx.em.create(Invoice, {
      order: data.orderId,
      invoiceNo: next.invoiceNo,
      title: data.title ?? order.displayName,
      taxNumber: data.taxNumber ?? null,
      amount: order.netPaid,
      issuedAt: toDate(next.now),
    });
    try {
      await tx.em.flush();
    } catch (error) {
      // One invoice per order: the unique key decides, also between two shops' clicks at once.
      if (error instanceof UniqueConstraintViolationException) throw conflict('INVOICE_ALREADY_ISSUED', 'This order already has an invoice');
      throw error;
    }
    return view(data.orderId, order.netPaid, invoice);
  });
}

export const getMyInvoiceRefusals = refusals('INVOICE_NOT_AVAILABLE', 'NOT_FOUND');

/** The customer reads the invoice of their own paid order. */
export async function getMyInvoice(ctx: ServiceContext, input: unknown): Promise<InvoiceView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  const row = await typedSql(ctx.em)
    .selectFrom('Order as o')
    .leftJoin('Invoice as i', 'i.order', 'o.id')
    .select((eb) => [
      'o.status', 'i.invoiceNo', 'i.title', 'i.taxNumber', 'i.amount', 'i.issuedAt',
      netPaid({ id: eb.ref('o.id'), total: eb.ref('o.total') }).as('netPaid'),
    ])
    .where('o.id', '=', orderId)
    .where('o.customer', '=', customer.userId)
    .executeTakeFirst();
  if (!row) throw notFound('Order', { order_id: orderId });
  const { invoiceNo, title, amount, issuedAt } = row;
  // An issued invoice stays readable whatever happened to the order since (e.g. refunded in full).
  if (invoiceNo !== null && title !== null && amount !== null && issuedAt !== null) {
    return view(orderId, row.netPaid, { invoiceNo, title, taxNumber: row.taxNumber, amount, issuedAt });
  }
  if (!PAID_STATES.includes(row.status)) throw refused('INVOICE_NOT_AVAILABLE', 'An order has an invoice only once it is paid', { status: row.status });
  return view(orderId, row.netPaid);
}
