import { formatMoney, type Currency } from '../money/format-money';

/** An amount without a zero fraction: buckets start at whole yuan, so `¥50` reads better than `¥50.00`. */
function short(amount: number, currency: Currency): string {
  return amount % 10 ** currency.minorUnitDigits === 0 ? formatMoney(amount, currency).replace(/\.0+$/, '') : formatMoney(amount, currency);
}

/** A price range as the shopper reads it: `¥50 – ¥99.99`, `¥200 and up`, `up to ¥30`. */
export function priceRangeLabel(min: number | null, max: number | null, currency: Currency): string {
  if (max === null) return `${short(min ?? 0, currency)} and up`;
  if (min === null) return `up to ${short(max, currency)}`;
  return `${short(min, currency)} – ${short(max, currency)}`;
}
