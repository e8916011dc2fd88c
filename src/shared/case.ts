import { isoString } from './iso-date.js';

/** REST speaks snake_case JSON; services and GraphQL speak camelCase. These convert at the door. */
export const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Keys are a small fixed vocabulary (field names), so each is converted once: the regex replace per
 * key per response was most of the cost of shaping a listing page. Keys that come from a client
 * (query and body) are converted but not remembered beyond the bound, so they cannot grow the memo.
 */
const MEMO_LIMIT = 5_000;

function memoized(convert: (key: string) => string): (key: string) => string {
  const memo = new Map<string, string>();
  return (key) => {
    let converted = memo.get(key);
    if (converted === undefined) {
      converted = convert(key);
      if (memo.size < MEMO_LIMIT) memo.set(key, converted);
    }
    return converted;
  };
}

/**
 * Dates become their JSON text on the way (the same text `JSON.stringify` would write): an object
 * with a `toJSON` method takes the whole stringify off V8's fast path, which made serializing a
 * listing page of 20 products about four times slower.
 */
function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return isoString(value);
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const name = convert(key);
    const converted = convertKeys((value as Record<string, unknown>)[key], convert);
    // A client's `__proto__` key stays a plain key (which strict validation then refuses): assigned,
    // it would replace the object's prototype instead.
    if (name === '__proto__') Object.defineProperty(out, name, { value: converted, enumerable: true, writable: true, configurable: true });
    else out[name] = converted;
  }
  return out;
}

const snake = memoized(toSnake);
const camel = memoized(toCamel);
export const snakeKeys = (value: unknown) => convertKeys(value, snake);
export const camelKeys = (value: unknown) => convertKeys(value, camel);

/**
 * A field path as the REST request spelled it: services name fields as GraphQL does
 * (`shippingAddress.region`, `skus.0.id`, `pageSize`), REST clients sent `shipping_address.region`,
 * `skus.0.id`, `page_size`. Each dotted segment is snake_cased; indexes stay as they are.
 */
export const snakePath = (path: string) => path.split('.').map(snake).join('.');
