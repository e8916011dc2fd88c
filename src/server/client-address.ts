import type { IncomingMessage } from 'node:http';
import type { ClientAddress } from '../shared/auth-throttle.js';

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`): is the hop at `index` a proxy we trust? */
export type TrustProxyFn = (address: string, index: number) => boolean;

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * The client's address by the same rule as Express's `req.ip` (proxy-addr): walk from the socket's
 * peer back through `X-Forwarded-For` while each hop is a proxy TRUST_PROXY names; the first hop
 * that is not is the client. Used for the websocket upgrade, which Express never sees.
 */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxyFn): string {
  const socketAddress = req.socket.remoteAddress ?? 'unknown';
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '')
    .reverse();
  const hops = [socketAddress, ...forwarded];
  for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i], i)) return hops[i];
  return hops[hops.length - 1];
}

/**
 * The address sign-in attempts are counted under, and whether the request came with forwarding
 * headers that TRUST_PROXY did not let us use: a sign of a proxy the setting does not name.
 */
export function clientOf(req: IncomingMessage, address: string | undefined): ClientAddress {
  const ip = address ?? req.socket.remoteAddress ?? 'unknown';
  const forwarding = FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined);
  return { ip, forwardedUntrusted: forwarding && ip === req.socket.remoteAddress };
}
