import { formatCount, formatDate, formatDateTime, formatTime } from '../web/src/ui/dates.js';

/** The storefront writes dates, times and counts without `Intl` (web/src/ui/dates.ts says why). */
describe('dates, times and counts on the pages', () => {
  it('writes a day, a time and both in local time with two-digit fields', () => {
    const at = new Date(2026, 0, 5, 9, 7, 3);
    expect(formatDate(at)).toBe('2026-01-05');
    expect(formatTime(at)).toBe('09:07:03');
    expect(formatDateTime(at)).toBe('2026-01-05 09:07');
    // An ISO text from the API is read as the instant it names, then written in local time.
    expect(formatDate(at.toISOString())).toBe('2026-01-05');
    expect(formatDateTime(new Date(2026, 11, 31, 23, 59).toISOString())).toBe('2026-12-31 23:59');
  });

  it('groups thousands with commas, keeping the sign', () => {
    expect([0, 7, 999, 1000, 12500, 1234567, -4200].map(formatCount)).toEqual(['0', '7', '999', '1,000', '12,500', '1,234,567', '-4,200']);
  });
});
