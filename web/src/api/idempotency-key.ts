import { useRef } from 'react';

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * An `Idempotency-Key` for one logical submission: a retry after a network failure sends the same
 * key (the server replays its first answer instead of acting twice); once the server has answered,
 * the next submission is a new request and gets a new key.
 */
export function useIdempotencyKey(): { key: () => string; answered: () => void } {
  const current = useRef<string | null>(null);
  return {
    key: () => (current.current ??= newKey()),
    answered: () => {
      current.current = null;
    },
  };
}
