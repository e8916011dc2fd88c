import { z } from '../../shared/validate.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';

/**
 * Today's counters of the live operations page: REST publishes this schema and GraphQL's type is made
 * from it. "Today" is the calendar day of the configured time zone.
 */
export const OperationsTodayView = z
  .strictObject({
    shopId: id.nullable().describe('The shop counted; null: every shop'),
    timeZone: z.string().describe('The IANA time zone whose calendar day is today'),
    since: timestamp.describe('Start of today in that time zone'),
    currency: z.string(),
    // Every state, whatever became of the order since.
    ordersPlaced: count.describe('Orders created today, whatever their state now'),
    ordersPaid: count.describe('Orders paid today'),
    paidAmount: money.describe('Sum of the totals of the orders paid today (minor units)'),
    // By the customer, the payment window or a group's end.
    ordersCancelled: count.describe('Orders cancelled today'),
    // Whatever the day they were paid.
    awaitingShipment: count.describe('Paid orders not yet fully shipped, now'),
    refundsRequested: count.describe('Refunds and returns asked for today'),
    refundsOpen: count.describe('Refunds and returns waiting for the shop to decide, now'),
  })
  .describe("Today's counters of one shop (shop operator) or of every shop (platform admin)");
export type OperationsTodayView = z.infer<typeof OperationsTodayView>;
