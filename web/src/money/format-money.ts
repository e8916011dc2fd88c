/** The platform currency as the API describes it (`query currency`). */
export interface Currency {
  code: string;
  symbol: string;
  minorUnitDigits: number;
}

/**
 * An integer amount of minor units as text, without floating point: `formatMoney(123456, CNY)` is
 * `¥1,234.56`, `formatMoney(-500, CNY)` is `-¥5.00`.
 */
export function formatMoney(amount: number, currency: Currency): string {
  const digits = currency.minorUnitDigits;
  const scale = 10 ** digits;
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(amount));
  const major = Math.trunc(abs / scale);
  const minor = abs % scale;
  const grouped = String(major).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits > 0 ? `.${String(minor).padStart(digits, '0')}` : '';
  return `${sign}${currency.symbol}${grouped}${fraction}`;
}
