/** REST speaks snake_case JSON; services and GraphQL speak camelCase. These convert at the door. */
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[convert(key)] = convertKeys(item, convert);
  return out;
}

export const snakeKeys = (value: unknown) => convertKeys(value, toSnake);
export const camelKeys = (value: unknown) => convertKeys(value, toCamel);
