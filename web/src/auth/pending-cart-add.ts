/**
 * The item an anonymous visitor meant to add when "Add to cart" sent them to sign in. Kept in
 * sessionStorage (this tab only) and added to the cart right after sign-in.
 */
export interface PendingCartAdd {
  skuId: number;
  quantity: number;
}

const KEY = 'mallfront.pendingCartAdd';

export function rememberCartAdd(add: PendingCartAdd): void {
  sessionStorage.setItem(KEY, JSON.stringify(add));
}

/** The remembered item, removed from storage (it is added once). */
export function takeCartAdd(): PendingCartAdd | null {
  const raw = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  if (!raw) return null;
  try {
    const add = JSON.parse(raw) as PendingCartAdd;
    return Number.isInteger(add.skuId) && Number.isInteger(add.quantity) && add.quantity > 0 ? add : null;
  } catch {
    return null;
  }
}
