import type WebSocket from 'ws';

/**
 * Close code of a websocket refused for a limit below, with the reason `TOO_MANY_CONNECTIONS`.
 * graphql-ws clients do not reconnect after a 44xx of this kind, which is what is wanted: the same
 * attempt would be refused again.
 */
export const WS_TOO_MANY_CONNECTIONS = 4429;

interface Tracked {
  address: string;
  pending: boolean;
  userId: number | null;
}

/**
 * Websockets per user (`MAX_SOCKETS_PER_USER`) and, before they sign in, per client address
 * (`MAX_ANONYMOUS_SOCKETS_PER_ADDRESS`), in this process. Every event fans out to every socket of its
 * audience, so one customer's three hundred sockets cost the server as much as three hundred
 * customers; and sockets that never sign in hold memory until graphql-ws's initialisation timeout.
 * The newest socket over a limit is refused: the ones already open keep working.
 */
export class SocketLimits {
  private readonly tracked = new WeakMap<WebSocket, Tracked>();
  private readonly pendingByAddress = new Map<string, number>();
  private readonly openByUser = new Map<number, number>();

  constructor(private readonly limits: { perUser: number; anonymousPerAddress: number }) {}

  /** A socket opened from `address`, not signed in yet; false when that address already has too many. */
  opened(socket: WebSocket, address: string): boolean {
    const pending = this.pendingByAddress.get(address) ?? 0;
    if (pending >= this.limits.anonymousPerAddress) return false;
    this.pendingByAddress.set(address, pending + 1);
    const tracked: Tracked = { address, pending: true, userId: null };
    this.tracked.set(socket, tracked);
    socket.once('close', () => {
      this.settle(tracked);
      if (tracked.userId !== null) decrement(this.openByUser, tracked.userId);
    });
    return true;
  }

  /** The socket signed in as `userId`; false when that user already has too many open. */
  signedIn(socket: WebSocket, userId: number): boolean {
    const tracked = this.tracked.get(socket);
    // Not tracked: refused when it opened, and closing.
    if (!tracked) return false;
    this.settle(tracked);
    const open = this.openByUser.get(userId) ?? 0;
    if (open >= this.limits.perUser) return false;
    this.openByUser.set(userId, open + 1);
    tracked.userId = userId;
    return true;
  }

  /** The socket is no longer waiting to sign in. */
  private settle(tracked: Tracked): void {
    if (!tracked.pending) return;
    tracked.pending = false;
    decrement(this.pendingByAddress, tracked.address);
  }
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
