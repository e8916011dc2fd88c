import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { liveConnection } from './live-connection';
import { errorCode } from './errors';
import { fetchWithPreload } from './preloaded-query';

/** Close codes after which retrying cannot help (docs/api.md "Subscriptions and events"): the token was refused. */
const FINAL_CLOSE_CODES = new Set([4401, 4403]);

function closeCode(event: unknown): number | undefined {
  return typeof event === 'object' && event !== null && 'code' in event && typeof event.code === 'number' ? event.code : undefined;
}

/** One websocket per client, opened on the first subscription; it reconnects after a drop. */
function websocket(token: string | null, shopId: number | null): WsClient {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return createWsClient({
    url: `${scheme}://${location.host}/graphql`,
    // The acting shop as a connection parameter: a browser's websocket cannot carry `X-Shop-Id`.
    connectionParams: token ? { authorization: `Bearer ${token}`, ...(shopId === null ? {} : { shopId }) } : {},
    lazy: true,
    keepAlive: 10_000,
    retryAttempts: Infinity,
    shouldRetry: (event) => !FINAL_CLOSE_CODES.has(closeCode(event) ?? 0),
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** retries, 5000))),
    on: {
      connecting: (isRetry) => liveConnection.connecting(isRetry),
      connected: (_socket, _payload, wasRetry) => liveConnection.connected(wasRetry),
      closed: () => liveConnection.closed(),
    },
  });
}

/**
 * The one GraphQL client of the storefront (urql): HTTP for queries and mutations, graphql-ws for
 * subscriptions, the bearer token on both. A new client is made per token and acting shop, so one
 * account's (or one shop's) cached answers never show to another. `onSessionRefused` runs when the API says the token is no good.
 */
export function createApiClient(token: string | null, shopId: number | null, onSessionRefused: () => void): Client {
  let ws: WsClient | null = null;
  return new Client({
    url: '/graphql',
    preferGetMethod: false,
    fetch: fetchWithPreload,
    // A member of several shops names the one they work in (`X-Shop-Id`; `shopId` in the websocket's
    // connection parameters).
    fetchOptions: (): RequestInit => (token ? { headers: { authorization: `Bearer ${token}`, ...(shopId === null ? {} : { 'x-shop-id': String(shopId) }) } } : {}),
    exchanges: [
      mapExchange({
        onError(error) {
          const code = errorCode(error);
          if (token && (code === 'TOKEN_INVALID' || code === 'TOKEN_EXPIRED')) onSessionRefused();
        },
      }),
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          ws ??= websocket(token, shopId);
          const socket = ws;
          return {
            subscribe(sink) {
              const dispose = socket.subscribe({ ...request, query: request.query ?? '' }, sink);
              return { unsubscribe: dispose };
            },
          };
        },
      }),
    ],
  });
}
