/**
 * MikroORM expands an array parameter into a list (`in (?)` style). To bind one PostgreSQL array
 * (`= any(?::int[])`, `unnest(?::int[])`) pass its literal text instead.
 */
export function intArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return `{${values.join(',')}}`;
}

/** A PostgreSQL text array literal (`= any(?::text[])`), each element quoted. */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
