import type { Client } from 'urql';
import { refusalOf, type ApiRefusal } from '../api/errors';
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
  mutation SetCartItem($input: SetCartItemInput!) {
    setCartItem(input: $input) {
      cart {
        itemCount
        total
        lines {
          skuId
          quantity
        }
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/**
 * Adds `quantity` of a SKU to the cart. The API sets a line's quantity, so this reads the line
 * first. `token` overrides the client's (right after sign-in, before the new client exists).
 */
export async function addToCart(client: Client, add: { skuId: number; quantity: number }, token?: string): Promise<ApiRefusal | null> {
  const context = token ? { fetchOptions: { headers: { authorization: `Bearer ${token}` } }, requestPolicy: 'network-only' as const } : { requestPolicy: 'network-only' as const };
  const cart = await client.query(CartQuantities, {}, context).toPromise();
  if (cart.error) return cart.error;
  const current = cart.data?.cart.lines.find((l) => l.skuId === add.skuId)?.quantity ?? 0;
  const set = await client.mutation(SetCartItem, { input: { skuId: add.skuId, quantity: current + add.quantity } }, context).toPromise();
  return refusalOf(set.error, set.data?.setCartItem);
}
