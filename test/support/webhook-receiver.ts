import http from 'node:http';
import type net from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. `answer` decides each request's fate: a
 * status to answer (at once, or when a promise of it settles), or 'hang' (never answer). Every
 * request is recorded, answered or not; it counts the connections opened to it and the most
 * requests it held unanswered at once.
 */
export async function startReceiver(answer: (request: ReceivedWebhook, n: number) => number | 'hang' | Promise<number> = () => 200) {
  const received: ReceivedWebhook[] = [];
  const sockets = new Set<net.Socket>();
  const counts = { connections: 0, inFlight: 0, maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      const fate = answer(request, received.length);
      counts.maxInFlight = Math.max(counts.maxInFlight, ++counts.inFlight);
      if (fate === 'hang') return;
      void Promise.resolve(fate).then((status) => {
        counts.inFlight--;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
      });
    });
  });
  server.on('connection', (s) => {
    counts.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    counts,
    /** Delivered event ids, in arrival order. */
    ids: () => received.map((r) => String(r.headers['webhook-id'])),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
