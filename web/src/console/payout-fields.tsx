import { graphql } from './gql';
import type { PayoutFieldsFragment } from './gql/graphql';
import { label } from './kit';

/** A payout as both consoles show it: the shop's Money screen and the platform's payout batches. */
export const PayoutFields = graphql(`
  fragment PayoutFields on Payout {
    id
    batchId
    shopId
    shopName
    amount
    status
    failureReason
    failedAfterPaid
    createdAt
    settledAt
  }
`);

/** Its status, with the bank's return of a paid payout and the failure's reason when there is one. */
export function PayoutStatusText({ payout }: { payout: Pick<PayoutFieldsFragment, 'status' | 'failedAfterPaid' | 'failureReason'> }) {
  return (
    <>
      {label(payout.status)}
      {payout.failedAfterPaid ? ' (returned by the bank after it was paid)' : ''}
      {payout.failureReason ? `: ${payout.failureReason}` : ''}
    </>
  );
}
