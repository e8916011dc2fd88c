/**
 * Alipay states amounts as yuan in decimal text with at most two places ("12.34"); the mall keeps
 * integer fen. Both ways are done on the digits, never through a float (0.07 * 100 is 7.000000000000001).
 */

/** Fen (a non-negative safe integer) as Alipay's yuan text: 1 -> "0.01", 1234 -> "12.34", 100 -> "1.00". */
export function yuanOf(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`an amount in fen must be a whole number of 0 or more, got ${fen}`);
  const digits = String(fen).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const YUAN = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/;

/** Alipay's yuan text as fen ("12.3" -> 1230, "0.01" -> 1); null for anything that is not such an amount. */
export function fenOf(yuan: string): number | null {
  const match = YUAN.exec(yuan);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
