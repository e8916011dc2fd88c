import { conflict, notFound, refused } from '../errors.js';
import { toDate } from '../shared/values.js';
import { OrderStatus, PAID_STATES } from '../entities/order.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireCustomer, requireOperator } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { netPaidOf } from '../after-sale/refund-amount.js';
import { id, parseInput, z } from '../shared/validate.js';

/**
 * An order's invoice. It exists to be asked for once the order is paid: `status` is `not_issued` and
 * `invoiceNo` null until the shop issues it, then `issued` with a number taken at issue time.
 */
export interface InvoiceView {
  orderId: number;
  status: 'not_issued' | 'issued';
  invoiceNo: string | null;
  title?: string;
  taxNumber?: string;
  amount: number;
  issuedAt?: Date;
}

const IssueInput = z.strictObject({
  orderId: id,
  title: z.string().trim().min(1).max(200).optional(),
  taxNumber: z.string().trim().min(1).max(40).optional(),
});
const OrderRef = z.object({ orderId: id });

function view(orderId: number, total: number, row?: { invoice_no: string; title: string; tax_number: string | null; amount: number; issued_at: Date }): InvoiceView {
  if (!row) return { orderId, status: 'not_issued', invoiceNo: null, amount: total };
  return {
    orderId,
    status: 'issued',
    invoiceNo: row.invoice_no,
    title: row.title,
    taxNumber: row.tax_number ?? undefined,
    amount: row.amount,
    issuedAt: toDate(row.issued_at),
  };
}

/** The shop issues the invoice of a paid (or later) order, once. */
export async function issueInvoice(ctx: ServiceContext, input: unknown): Promise<InvoiceView> {
  const operator = requireOperator(ctx);
  const data = parseInput(IssueInput, input);
  return inTransaction(ctx, async (tx) => {
    // The invoice is for what the customer finally paid: the total less refunds completed so far.
    const [order] = await tx.em.execute<{ status: OrderStatus; total: number; display_name: string }[]>(
      `select o.status, ${netPaidOf('o')} as total, u.display_name
         from shop_order o join app_user u on u.id = o.customer_id
        where o.id = ? and o.shop_id = ?`,
      [data.orderId, operator.shopId],
    );
    if (!order) throw notFound('Order', { order_id: data.orderId });
    if (!PAID_STATES.includes(order.status)) throw refused('INVOICE_NOT_AVAILABLE', 'An invoice can be issued only for a paid order', { status: order.status });
    const [row] = await tx.em.execute<any[]>(
      `insert into invoice (order_id, invoice_no, title, tax_number, amount, issued_at)
       values (?, 'MF' || to_char(now(), 'YYYY') || lpad(nextval('invoice_no_seq')::text, 8, '0'), ?, ?, ?, now())
       on conflict (order_id) do nothing
       returning invoice_no, title, tax_number, amount, issued_at`,
      [data.orderId, data.title ?? order.display_name, data.taxNumber ?? null, order.total],
    );
    if (!row) throw conflict('INVOICE_ALREADY_ISSUED', 'This order already has an invoice');
    return view(data.orderId, order.total, row);
  });
}

/** The customer reads the invoice of their own paid order. */
export async function getMyInvoice(ctx: ServiceContext, input: unknown): Promise<InvoiceView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  const [row] = await ctx.em.execute<any[]>(
    `select o.status, i.invoice_no, i.title, i.tax_number, i.amount, i.issued_at,
            ${netPaidOf('o')} as total
       from shop_order o left join invoice i on i.order_id = o.id where o.id = ? and o.customer_id = ?`,
    [orderId, customer.userId],
  );
  if (!row) throw notFound('Order', { order_id: orderId });
  // An issued invoice stays readable whatever happened to the order since (e.g. refunded in full).
  if (row.invoice_no) return view(orderId, row.total, row);
  if (!PAID_STATES.includes(row.status)) throw refused('INVOICE_NOT_AVAILABLE', 'An order has an invoice only once it is paid', { status: row.status });
  return view(orderId, row.total, undefined);
}
