/**
 * Where to send a visitor after sign-in (spec "Client sign-in behaviour"): the `redirect` target
 * when it is a path of this origin, and `/` (the fallback) for anything else. Pure: no DOM, no
 * globals, so it is table-tested by the root jest suite (test/web-safe-redirect.test.ts).
 *
 * Accepted: `/`, `/products/12`, `/search?q=tea%20set`, `/cart#lines`. Refused: absolute and
 * protocol-relative URLs (`https://x`, `//x`, `/\x`), schemes (`javascript:`, `data:`), any
 * backslash or control character (browsers strip tabs and newlines and read `\` as `/`), and
 * targets whose percent-decoding (repeated) reveals one of those.
 */
const MAX_LENGTH = 2048;
/** A stand-in origin: a target is kept only when it resolves inside it. */
const BASE = 'https://mallfront.invalid';
/** Pages that would loop back into sign-in. */
const LOOPING = ['/login', '/register'];

/** Never in a raw target: whitespace, controls, invisible separators and backslashes. */
const RAW_FORBIDDEN = /[\u0000-\u0020\u007f-\u009f\\\u2028\u2029\ufeff]/;
/** Never in a decoded path (before `?` or `#`): controls and backslashes. A decoded query may hold a space. */
const PATH_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\\]/;

/** The target decoded until it stops changing; null when an escape is malformed or decoding never settles. */
function fullyDecoded(target: string): string | null {
  let current = target;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** Starts with exactly one slash (not `//` or `/\`), and its path part is clean. */
function isRootRelative(value: string): boolean {
  if (!value.startsWith('/') || value[1] === '/' || value[1] === '\\') return false;
  const path = value.split(/[?#]/, 1)[0];
  return !PATH_FORBIDDEN.test(path);
}

export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (typeof target !== 'string' || target.length === 0 || target.length > MAX_LENGTH) return fallback;
  if (RAW_FORBIDDEN.test(target) || !isRootRelative(target)) return fallback;
  const decoded = fullyDecoded(target);
  if (decoded === null || !isRootRelative(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(target, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  if (LOOPING.includes(url.pathname)) return fallback;
  // Dot segments can normalize into `//host` (`/.//evil.example`): check what would be navigated to.
  const result = url.pathname + url.search + url.hash;
  return isRootRelative(result) ? result : fallback;
}
