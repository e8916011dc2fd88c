import { useLiveConnection } from '../../api/live-connection';
import { formatTime } from '../../ui/dates';

const LABELS = { idle: 'Not connected', connecting: 'Connecting…', live: 'Live', reconnecting: 'Connection lost: reconnecting…' } as const;

/** Whether the live feed is connected, and when it last came back after a drop. */
export function ConnectionStatus() {
  const live = useLiveConnection();
  return (
    <p className={`live-status live-${live.state}`} role="status" aria-live="polite" data-testid="live-status">
      <span className="dot" aria-hidden="true" /> {LABELS[live.state]}
      {live.reconnects > 0 && live.lastReconnectAt ? (
        <span>
          {' '}
          · reconnected {live.reconnects === 1 ? 'once' : `${live.reconnects} times`}, last at <time dateTime={live.lastReconnectAt.toISOString()}>{formatTime(live.lastReconnectAt)}</time>; figures refreshed
        </span>
      ) : null}
    </p>
  );
}
