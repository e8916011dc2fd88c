import { ShopStatus } from '../../entities/shop.entity.js';
import { z } from '../../shared/validate.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';

/** The views of shops for the platform: REST publishes these schemas and GraphQL's types are made from them. */
export const AdminShopBalanceView = z
  .strictObject({
    pending: z.number().int().describe('Earned on orders not completed yet'),
    available: z.number().int().describe('Payable in the next payout batch'),
    inTransit: z.number().int().describe('In payouts sent to the bank and not yet answered'),
    debt: z.number().int().describe('What refunds took beyond the available balance (zero or negative)'),
  })
  .describe("A shop's own balances");
export type AdminShopBalanceView = z.infer<typeof AdminShopBalanceView>;

export const AdminShopView = z
  .strictObject({
    id,
    slug: z.string(),
    name: z.string(),
    status: z.enum(ShopStatus),
    statusReason: z.string().optional().describe('The reason of the last suspension'),
    statusChangedAt: timestamp.optional(),
    currency: z.string(),
    paidOrders: count.describe('Orders ever paid (whatever happened to them after)'),
    sales: money.describe('What those orders cost their customers'),
    refunded: money.describe('What completed refunds gave back of them'),
    // The shop's own balances (settlement/statements.ts spells the same four for the shop).
    balance: AdminShopBalanceView,
    commission: z.number().int().describe("The platform's commission on the shop's sales, net of what refunds took back"),
  })
  .describe('A shop as the platform sees it: state, sales, balances and the commission on it');
export type AdminShopView = z.infer<typeof AdminShopView>;
