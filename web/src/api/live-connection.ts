import { useSyncExternalStore } from 'react';

/** The websocket behind subscriptions, as the operations page shows it. */
export interface LiveConnection {
  state: 'idle' | 'connecting' | 'live' | 'reconnecting';
  /** How many times the socket came back after dropping. */
  reconnects: number;
  lastReconnectAt: Date | null;
}

let current: LiveConnection = { state: 'idle', reconnects: 0, lastReconnectAt: null };
const listeners = new Set<() => void>();

function update(next: Partial<LiveConnection>) {
  current = { ...current, ...next };
  for (const listener of listeners) listener();
}

/** Called by the graphql-ws client's event hooks (api/client.ts). */
export const liveConnection = {
  connecting(isRetry: boolean) {
    update({ state: isRetry || current.state === 'reconnecting' ? 'reconnecting' : 'connecting' });
  },
  connected(wasRetry: boolean) {
    update(wasRetry ? { state: 'live', reconnects: current.reconnects + 1, lastReconnectAt: new Date() } : { state: 'live' });
  },
  closed() {
    if (current.state === 'live') update({ state: 'reconnecting' });
  },
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLiveConnection(): LiveConnection {
  return useSyncExternalStore(subscribe, () => current);
}
