/**
 * Small conversions of database values into view values, each written once.
 */

/** A nullable column as an optional view field: views leave out what is not there rather than send null. */
export const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/**
 * A timestamp as a Date. Raw SQL results carry timestamps as PostgreSQL text (MikroORM installs
 * string parsers so that its own hydration decides), and JSON built in SQL carries them as text too.
 */
export function toDate(value: string | Date): Date;
export function toDate(value: string | Date | null | undefined): Date | undefined;
export function toDate(value: string | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  return value instanceof Date ? value : new Date(value);
}

/** An ILIKE pattern matching `text` anywhere: `%` and `_` typed in a search box are literal characters, not wildcards. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
