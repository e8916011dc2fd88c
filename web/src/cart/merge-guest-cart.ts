import type { Client } from 'urql';
import { refusalOf, type ApiRefusal } from '../api/errors';
import { graphql } from '../gql';
import { clearGuestCart, guestCartLines } from './guest-cart';

const MergeCart = graphql(`
  mutation MergeCart($input: MergeCartInput!) {
    mergeCart(input: $input) {
      merged {
        cart {
          itemCount
        }
        lines {
          skuId
          requested
          inCart
          outcome
        }
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** What the merge could not add in full, for the shopper to see (a capped or withdrawn line). */
export interface MergeNote {
  skuId: number;
  requested: number;
  inCart: number;
  outcome: string;
}

/**
 * Right after sign-in: merges the guest cart into the account's cart (quantities add up to the
 * stock), then clears it. A refusal keeps it, so the next sign-in tries again. `token` is the new
 * session's (the client still has none).
 */
export async function mergeGuestCart(client: Client, token: string): Promise<{ error: ApiRefusal | null; notes: MergeNote[] }> {
  const items = guestCartLines();
  if (items.length === 0) return { error: null, notes: [] };
  const context = { fetchOptions: { headers: { authorization: `Bearer ${token}` } } };
  const idempotencyKey = `merge-${crypto.randomUUID()}`;
  const result = await client.mutation(MergeCart, { input: { items, idempotencyKey } }, context).toPromise();
  const error = refusalOf(result.error, result.data?.mergeCart);
  if (error) return { error, notes: [] };
  clearGuestCart();
  const notes = (result.data?.mergeCart.merged?.lines ?? []).filter((l) => l.outcome !== 'MERGED');
  return { error: null, notes };
}
