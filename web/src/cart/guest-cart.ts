import { useSyncExternalStore } from 'react';

/**
 * The cart of a signed-out visitor, kept in this browser (localStorage: every tab, across reloads)
 * until sign-in merges it into the account's cart (`mergeCart`). It is cleared only once the server
 * answered the merge, so a failed sign-in or merge loses nothing.
 */
export interface GuestLine {
  skuId: number;
  quantity: number;
}

const KEY = 'mallfront.guestCart';
const CHANGED = 'mallfront:guest-cart';
/** As the server's cart line allows. */
const MAX_QUANTITY = 999;

function read(): GuestLine[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (l): l is GuestLine => typeof l === 'object' && l !== null && Number.isInteger((l as GuestLine).skuId) && Number.isInteger((l as GuestLine).quantity) && (l as GuestLine).quantity > 0,
    );
  } catch {
    return [];
  }
}

function write(lines: GuestLine[]): void {
  if (lines.length === 0) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, JSON.stringify(lines));
  window.dispatchEvent(new Event(CHANGED));
}

export function guestCartLines(): GuestLine[] {
  return read();
}

/** Adds to a line (quantities add up, as the account's cart does). */
export function addToGuestCart(add: GuestLine): void {
  const lines = read();
  const line = lines.find((l) => l.skuId === add.skuId);
  if (line) line.quantity = Math.min(MAX_QUANTITY, line.quantity + add.quantity);
  else lines.push({ skuId: add.skuId, quantity: Math.min(MAX_QUANTITY, add.quantity) });
  write(lines);
}

/** Removes a line (the guest cart page's Remove). */
export function removeFromGuestCart(skuId: number): void {
  write(read().filter((l) => l.skuId !== skuId));
}

export function clearGuestCart(): void {
  write([]);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

const countOf = () => read().reduce((n, l) => n + l.quantity, 0);

/** How many items the guest cart holds, kept current across tabs. */
export function useGuestCartCount(): number {
  return useSyncExternalStore(subscribe, countOf, () => 0);
}

/** The lines as last read: the same array until the stored cart changes (useSyncExternalStore compares snapshots). */
let snapshot: { raw: string | null; lines: GuestLine[] } = { raw: null, lines: [] };
const linesOf = () => {
  const raw = localStorage.getItem(KEY);
  if (raw !== snapshot.raw) snapshot = { raw, lines: read() };
  return snapshot.lines;
};
const NO_LINES: GuestLine[] = [];

/** The guest cart's lines, kept current across tabs. */
export function useGuestCartLines(): GuestLine[] {
  return useSyncExternalStore(subscribe, linesOf, () => NO_LINES);
}
