import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardedLookup, hostOf, isBlockedAddress } from './webhook-target.js';

export interface SendLimits {
  allowPrivate: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface SendResult {
  /** The HTTP status, or null when no answer came (refused, timed out, connection failed). */
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** The answer's first bytes (at most 1 KiB), as text. */
  head: string | null;
}

const HEAD_BYTES = 1024;

/**
 * One POST of a delivery. No redirect is followed (a 3xx is a failed attempt); the whole attempt
 * (connect, send, answer) has one deadline; at most `maxResponseBytes` of the answer are read, then
 * the connection is dropped. The socket connects only to an address the guarded lookup accepted;
 * an IP literal in the URL is checked here, as no lookup runs for it.
 */
export function postWebhook(url: string, headers: Record<string, string>, body: string, limits: SendLimits): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const target = new URL(url);
    const host = hostOf(target);
    if (net.isIP(host) && !limits.allowPrivate && isBlockedAddress(host)) {
      finish({ status: null, error: `refused: ${host} is a private, loopback or link-local address`, head: null });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Mallfront-Webhooks/1' },
        lookup: guardedLookup(limits.allowPrivate),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString('utf8');
          const status = response.statusCode ?? null;
          const redirect = status !== null && status >= 300 && status < 400;
          finish({ status, error: redirect ? 'redirect not followed' : null, head: text });
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (chunks.reduce((n, c) => n + c.length, 0) < HEAD_BYTES) chunks.push(chunk);
          if (read >= limits.maxResponseBytes) {
            done();
            request.destroy();
          }
        });
        response.on('end', done);
        response.on('error', (error) => finish({ status: response.statusCode ?? null, error: error.message, head: null }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `timed out after ${limits.timeoutMs} ms`, head: null });
      request.destroy();
    }, limits.timeoutMs);
    request.on('error', (error) => finish({ status: null, error: error.message, head: null }));
    request.end(body);
  });
}
