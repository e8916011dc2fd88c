import http from 'node:http';
import type net from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. `answer` decides each request's fate: a
 * status to answer, or 'hang' (never answer). Every request is recorded, answered or not.
 */
export async function startReceiver(answer: (request: ReceivedWebhook, n: number) => number | 'hang' = () => 200) {
  const received: ReceivedWebhook[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      const fate = answer(request, received.length);
      if (fate === 'hang') return;
      res.writeHead(fate, { 'content-type': 'text/plain' }).end(`answered ${fate}`);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** Delivered event ids, in arrival order. */
    ids: () => received.map((r) => String(r.headers['webhook-id'])),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
