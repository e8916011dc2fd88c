import cluster from 'node:cluster';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Request, Response, NextFunction } from 'express';
import { AggregatorRegistry } from 'prom-client';
import type { AppConfig } from '../config.js';
import { AppError } from '../errors.js';
import { graphqlOperationDuration, httpRequestDuration, metricsRegistry } from '../metrics.js';

/** The IPC messages between a worker serving `/metrics` and the primary that aggregates every worker's. */
const SCRAPE = 'mallfront:scrape';
const SCRAPED = 'mallfront:scraped';
const SCRAPE_TIMEOUT_MS = 5000;

interface ScrapeAnswer {
  type: typeof SCRAPED;
  id: string;
  text?: string;
  error?: string;
}

const waiting = new Map<string, (answer: ScrapeAnswer) => void>();
let listening = false;

/**
 * This process's metrics; in a worker of a cluster (CLUSTER_WORKERS > 1), every worker's, added up
 * by the primary (prom-client's AggregatorRegistry; `serveClusterMetrics` in the primary). A scrape
 * reaches whichever worker the connection landed on, and still sees the whole server.
 */
async function scrape(): Promise<string> {
  if (!cluster.isWorker || !process.send) return metricsRegistry.metrics();
  if (!listening) {
    listening = true;
    process.on('message', (message: Partial<ScrapeAnswer>) => {
      if (message?.type === SCRAPED && typeof message.id === 'string') waiting.get(message.id)?.(message as ScrapeAnswer);
    });
  }
  const id = randomUUID();
  const answer = await new Promise<ScrapeAnswer>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('the primary did not answer the metrics scrape'));
    }, SCRAPE_TIMEOUT_MS);
    waiting.set(id, (message) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(message);
    });
    process.send!({ type: SCRAPE, id });
  });
  if (answer.text === undefined) throw new Error(answer.error ?? 'the metrics scrape failed');
  return answer.text;
}

/** In a worker: the metrics the primary's aggregator asks for are this registry's (not prom-client's global one). */
export function offerWorkerMetrics(): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([metricsRegistry]);
  // prom-client answers the primary's requests from a listener its constructor sets up, in workers too.
  new AggregatorRegistry();
}

/** In the primary of a cluster: answers the workers' scrapes with every worker's metrics added up. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== SCRAPE || typeof message.id !== 'string') return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: SCRAPED, id, text } satisfies ScrapeAnswer),
      (error: unknown) => worker.send({ type: SCRAPED, id, error: error instanceof Error ? error.message : String(error) } satisfies ScrapeAnswer),
    );
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` as METRICS says: `off` answers 404 like any unknown path, `token` wants the bearer
 * METRICS_TOKEN (compared in constant time), `public` answers anyone.
 */
export function metricsEndpoint(config: AppConfig['metrics']) {
  const expected = config.token ? sha256(`Bearer ${config.token}`) : null;
  return async (req: Request, res: Response, next: NextFunction) => {
    if (config.exposure === 'off') return next();
    if (config.exposure === 'token') {
      const given = req.header('authorization');
      if (!expected || given === undefined || !timingSafeEqual(sha256(given), expected)) {
        res.set('WWW-Authenticate', 'Bearer realm="metrics"');
        return next(new AppError('UNAUTHENTICATED', 401, 'The metrics need the scraper\'s bearer token (METRICS_TOKEN)'));
      }
    }
    try {
      const text = await scrape();
      res.set('Content-Type', metricsRegistry.contentType).set('Cache-Control', 'no-store').send(text);
    } catch (error) {
      next(error);
    }
  };
}

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** An HTTP status as its class label ("2xx"), from a fixed set. */
export const statusClass = (status: number) => STATUS_CLASSES[Math.trunc(status / 100)] ?? '0xx';

type Child = ReturnType<typeof httpRequestDuration.labels>;

/**
 * The histogram children by label values, made once each: prom-client's `labels()` builds its label
 * object and closures at every call, which the request path should not pay. The keys are bounded
 * (route templates and the fallbacks of `fallbackRoute` (server/app.ts), methods Node's parser knows, six status classes).
 */
const httpChildren = new Map<string, Map<string, Child[]>>();
const graphqlChildren = new Map<string, Map<string, Child[]>>();

function child(cache: Map<string, Map<string, Child[]>>, make: (a: string, b: string, c: string) => Child, a: string, b: string, status: number): Child {
  let byB = cache.get(a);
  if (!byB) cache.set(a, (byB = new Map<string, Child[]>()));
  let byClass = byB.get(b);
  if (!byClass) byB.set(b, (byClass = []));
  const index = Math.trunc(status / 100);
  return (byClass[index] ??= make(a, b, statusClass(status)));
}

export function observeHttp(method: string, route: string, status: number, seconds: number): void {
  child(httpChildren, (m, r, c) => httpRequestDuration.labels(m, r, c), method, route, status).observe(seconds);
}

export function observeGraphql(operation: string, type: string, status: number, seconds: number): void {
  child(graphqlChildren, (o, t, c) => graphqlOperationDuration.labels(o, t, c), operation, type, status).observe(seconds);
}

/** Distinct operation names kept as labels; later names count as "other" (clients choose names freely). */
const MAX_OPERATION_NAMES = 100;
const OTHER = 'other';
const operationNames = new Set<string>();

/** The operation's label: its name while fewer than MAX_OPERATION_NAMES were seen, else (and unnamed) "other". */
export function operationLabel(name: string | null | undefined): string {
  if (!name) return OTHER;
  if (operationNames.has(name)) return name;
  if (operationNames.size >= MAX_OPERATION_NAMES || name.length > 64) return OTHER;
  operationNames.add(name);
  return name;
}
