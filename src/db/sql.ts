/**
 * MikroORM expands an array parameter into a list (`in (?)` style). To bind one PostgreSQL array
 * (`= any(?::int[])`, `unnest(?::int[])`) pass its literal text instead.
 */
export function intArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return `{${values.join(',')}}`;
}

/** Like `intArray`, for `= any(?::text[])`: every element is quoted, so no value can read as NULL or break out. */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * Raw `em.execute` results carry timestamps as PostgreSQL text (MikroORM installs string parsers so
 * that its own hydration decides); services turn them into Dates with these before returning views.
 */
export function toDate(value: string | Date): Date;
export function toDate(value: string | Date | null | undefined): Date | undefined;
export function toDate(value: string | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  return value instanceof Date ? value : new Date(value);
}
