import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { addressProblem, guardedLookup, hostOf, WebhookTargetRefused } from './webhook-target.js';

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
 * Connections kept open between deliveries (an endpoint receives many in a row; without it each
 * attempt paid a new TCP, and TLS, handshake). One pool per protocol and per address rule, so a
 * connection opened where private addresses were allowed is never reused where they are not. A
 * pooled connection was checked when it connected (the guarded lookup), to the address it still
 * talks to. Idle connections close after IDLE_MS, or sooner when the receiver announces a shorter
 * keep-alive (Node's agent reads its `Keep-Alive: timeout=` hint).
 */
const IDLE_MS = 4000;
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_MS, scheduling: 'lifo' as const };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Text for the log: PostgreSQL text holds no NUL. */
const loggable = (text: string) => text.replaceAll('\u0000', '');

/**
 * One POST of a delivery. No redirect is followed (a 3xx is a failed attempt); the whole attempt
 * (connect, send, answer) has one deadline; at most `maxResponseBytes` of the answer are read, then
 * the connection is dropped. The socket connects only to an address the guarded lookup accepted;
 * an IP literal in the URL is checked here, as no lookup runs for it. A pooled connection that the
 * receiver closed just as it was reused (a reset before any answer) is retried once on a new one,
 * within the same deadline: the request never reached the receiver's handler.
 */
export function postWebhook(url: string, headers: Record<string, string>, body: string, limits: SendLimits): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest | null = null;
    const finish = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, error: result.error === null ? null : loggable(result.error), head: result.head === null ? null : loggable(result.head), latencyMs: elapsed() });
    };
    const target = new URL(url);
    const host = hostOf(target);
    const timer = setTimeout(() => {
      finish({ status: null, error: `timed out after ${limits.timeoutMs} ms`, head: null });
      request?.destroy();
    }, limits.timeoutMs);
    const problem = net.isIP(host) && !limits.allowPrivate ? addressProblem(host) : null;
    if (problem) {
      finish({ status: null, error: `refused: ${host} is ${problem}`, head: null });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const send = (agent: http.Agent | false) => {
      let answered = false;
      const sent = client.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Mallfront-Webhooks/1' },
          lookup: guardedLookup(limits.allowPrivate),
          agent,
        },
        (response) => {
          answered = true;
          const chunks: Buffer[] = [];
          let kept = 0;
          let read = 0;
          const done = () => {
            const text = Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString('utf8');
            const status = response.statusCode ?? null;
            const redirect = status !== null && status >= 300 && status < 400;
            finish({ status, error: redirect ? 'redirect not followed' : null, head: text });
          };
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (kept < HEAD_BYTES) {
              chunks.push(chunk);
              kept += chunk.length;
            }
            if (read >= limits.maxResponseBytes) {
              done();
              sent.destroy();
            }
          });
          response.on('end', done);
          response.on('error', (error) => finish({ status: response.statusCode ?? null, error: error.message, head: null }));
        },
      );
      request = sent;
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (sent.reusedSocket && error.code === 'ECONNRESET' && !answered && agent !== false && !settled) send(false);
        else finish({ status: null, error: error instanceof WebhookTargetRefused ? `refused: ${error.message}` : error.message, head: null });
      });
      sent.end(body);
    };
    send(agentFor(target.protocol, limits.allowPrivate));
  });
}
