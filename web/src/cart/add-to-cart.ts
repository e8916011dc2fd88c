import type { Client, CombinedError } from 'urql';
import { graphql } from '../gql';

const CartQuantities = graphql(`
  query CartQuantities {
    cart {
      lines {
        skuId
        quantity
      }
    }
  }
`);

const SetCartItem = graphql(`
  mutation SetCartItem($skuId: Int!, $quantity: Int!) {
    setCartItem(skuId: $skuId, quantity: $quantity) {
      itemCount
      total
      lines {
        skuId
        quantity
      }
    }
  }
`);

/**
 * Adds `quantity` of a SKU to the cart. The API sets a line's quantity, so this reads the line
 * first. `token` overrides the client's (right after sign-in, before the new client exists).
 */
export async function addToCart(client: Client, add: { skuId: number; quantity: number }, token?: string): Promise<CombinedError | null> {
  const context = token ? { fetchOptions: { headers: { authorization: `Bearer ${token}` } }, requestPolicy: 'network-only' as const } : { requestPolicy: 'network-only' as const };
  const cart = await client.query(CartQuantities, {}, context).toPromise();
  if (cart.error) return cart.error;
  const current = cart.data?.cart.lines.find((l) => l.skuId === add.skuId)?.quantity ?? 0;
  const set = await client.mutation(SetCartItem, { skuId: add.skuId, quantity: current + add.quantity }, context).toPromise();
  return set.error ?? null;
}
