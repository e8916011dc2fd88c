import { useEffect, useState } from 'react';

/** Now, ticking every second while mounted. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const two = (n: number) => String(n).padStart(2, '0');

/** Time left until `until`, as `1d 02:03:04`; `ended` once it is past. */
export function Countdown({ until, label = 'Ends in', onEnd }: { until: string; label?: string; onEnd?: () => void }) {
  const now = useNow();
  const left = Math.max(0, Date.parse(until) - now);
  useEffect(() => {
    if (left === 0) onEnd?.();
  }, [left, onEnd]);
  if (left === 0) return <span className="countdown">Ended</span>;
  const s = Math.floor(left / 1000);
  const days = Math.floor(s / 86400);
  const text = `${days > 0 ? `${days}d ` : ''}${two(Math.floor((s % 86400) / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return (
    <span className="countdown">
      {label} <time dateTime={until}>{text}</time>
    </span>
  );
}
