import net from 'node:net';
import pg from 'pg';
import { attachRowListeners } from './row-parser.js';
import { DatabaseDeadlineError, DeadlineWatch, currentScope, deadlineWatch, type Expirable } from './request-scope.js';

export interface DeadlineClientConfig extends pg.ClientConfig {
  /**
   * Longest wait for the answer to a statement (0: none); inside a request, what is left of its
   * deadline when that is shorter.
   */
  answerTimeoutMs?: number;
}

/** `boundNow`'s answer when the answer timeout bounds the statement. */
const ANSWER_TIMEOUT = 'answer timeout';

/** Options of a pool of DeadlineClients: pg-pool hands its options to every client it makes. */
export type DeadlinePoolConfig = pg.PoolConfig & Pick<DeadlineClientConfig, 'answerTimeoutMs'>;

/** TCP keepalive on every connection: an idle pooled connection to a vanished server is found and dropped. */
export const KEEPALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;

/**
 * The pool's connection class (`Client` option of pg-pool): a statement whose answer does not come
 * in time, because the server is frozen, the network silently gone or the request's deadline
 * reached, fails with DatabaseDeadlineError and its connection is cut. `pg`'s own `query_timeout`
 * is not enough: it fails the statement but keeps the connection, which goes back to the pool still
 * waiting for that answer, and the next request to take it inherits the wait. Cut, the connection is
 * dropped by the pool, and the server ends the session (and its locks) when it notices.
 */
export class DeadlineClient extends pg.Client implements Expirable {
  readonly answerTimeoutMs: number;
  /** Cut for a deadline: the statements failing now fail with DatabaseDeadlineError. */
  private cutOff = false;
  /**
   * The deadline watch of each statement in flight under one, in the order sent: `pg` answers a
   * connection's statements in that order, so the first to settle is the first here.
   */
  private readonly watches: DeadlineWatch[] = [];

  constructor(config: DeadlineClientConfig = {}) {
    super(config);
    this.answerTimeoutMs = config.answerTimeoutMs ?? 0;
    // Rows are read by row-parser.ts (why there); pg attaches the listeners when the connection opens.
    (this.connection as unknown as { attachListeners: typeof attachRowListeners }).attachListeners = attachRowListeners;
  }

  /**
   * Cuts the connection: the statement in flight fails, and the pool drops this client on release.
   * The server is also asked to cancel the statement: a backend waiting for a row lock does not
   * notice that its client is gone, and would otherwise write (and commit) after we answered 503.
   */
  cut(): void {
    this.connection.stream.destroy();
    const { processID, secretKey } = this as unknown as { processID?: number; secretKey?: number };
    if (processID !== undefined && secretKey !== undefined) sendCancelRequest(this.host, this.port, processID, secretKey);
  }

  /** The request's deadline passed with a statement of this connection in flight. */
  expire(): void {
    this.cutOff = true;
    this.cut();
  }

  /** A statement sent under a deadline watch (below), answered or failed: made once per connection, not per statement. */
  readonly answered = (value: unknown): unknown => {
    this.watches.shift()?.release(this);
    return value;
  };

  readonly failed = (error: Error): never => {
    this.watches.shift()?.release(this);
    throw this.cutOff ? new DatabaseDeadlineError('answer') : error;
  };

  /**
   * A statement whose answer is handed to `done`, bounded as `query`'s promise form is (below): by
   * the request's deadline watch inside a request, else by the answer timeout. The storefront's
   * prepared reads use it (prepared-statements.ts) so that their connection goes back to the pool
   * before the rows are handed on: through `pg`'s promise, with the connection given back after, a
   * page's rows outlived the next young-generation collection under load and were copied into the
   * old generation, 2-5 KB per listing (issue 43, docs/performance.md).
   */
  answer(config: pg.QueryConfig | pg.Submittable, done: (error: Error | undefined, result: pg.QueryResult | undefined) => void): void {
    const bound = this.boundNow();
    if (bound instanceof DeadlineWatch) {
      const watch = this.cutOff ? null : bound;
      if (watch) {
        this.watches.push(watch);
        watch.add(this);
      }
      query.call(this, config, (error: Error | null, result: pg.QueryResult | undefined) => {
        if (watch) this.watches.shift()?.release(this);
        done(error ? (this.cutOff ? new DatabaseDeadlineError('answer') : error) : undefined, result);
      });
      return;
    }
    const settled = bound === ANSWER_TIMEOUT ? this.startAnswerTimer() : null;
    query.call(this, config, (error: Error | null, result: pg.QueryResult | undefined) => {
      const cutOff = settled !== null && settled();
      done(error ? (cutOff ? new DatabaseDeadlineError('answer') : error) : undefined, result);
    });
  }

  /**
   * What bounds a statement sent now: inside a request whose deadline comes before the answer
   * timeout, the request's deadline watch; else the answer timeout (a timer of the statement's own:
   * no request, as for sweeps and event delivery, or a statement timeout shorter than what is left
   * of the request); else nothing.
   */
  boundNow(): DeadlineWatch | typeof ANSWER_TIMEOUT | null {
    const scope = currentScope();
    const deadline = scope?.deadline ?? null;
    const answerMs = this.answerTimeoutMs;
    if (deadline !== null && (answerMs === 0 || deadline - Date.now() <= answerMs)) return deadlineWatch(scope)!;
    return answerMs === 0 ? null : ANSWER_TIMEOUT;
  }

  /** The answer timeout's timer, cutting the connection when it fires; `settled()` stops it and says whether it fired. */
  startAnswerTimer(): () => boolean {
    let cutOff = false;
    const timer = setTimeout(() => {
      cutOff = true;
      this.cut();
    }, this.answerTimeoutMs);
    return () => {
      clearTimeout(timer);
      return cutOff;
    };
  }

  /** Bounded by the request's deadline: the scope's one timer (request-scope.ts), no timer or closure of its own. */
  watched(result: Promise<unknown>, watch: DeadlineWatch): Promise<unknown> {
    if (this.cutOff) {
      // Cut already (the deadline passed): this statement fails as the others did.
      return result.catch(() => {
        throw new DatabaseDeadlineError('answer');
      });
    }
    this.watches.push(watch);
    watch.add(this);
    return result.then(this.answered, this.failed);
  }
}

/** PostgreSQL's CancelRequest: its own connection, 16 bytes, no answer; given up after a while (a frozen server). */
function sendCancelRequest(host: string, port: number, processID: number, secretKey: number): void {
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(80877102, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
  // Best effort: it never keeps the process alive, nor waits on a frozen server for long.
  socket.unref();
  socket.setTimeout(CANCEL_TIMEOUT_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('connect', () => socket.end(message));
}

const CANCEL_TIMEOUT_MS = 5_000;

/** `pg`'s own `query`, which the bounded one wraps. */
const query = (Object.getOwnPropertyDescriptor(pg.Client.prototype, 'query') as { value: (this: pg.Client, ...args: unknown[]) => unknown }).value;

/** Only promise-style calls are bounded (ours, Kysely's); callbacks and cursors keep `pg`'s behaviour. */
function isPromise(value: unknown): value is Promise<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** `pg`'s promise form, bounded as `boundNow` says: the request's deadline watch, or a timer of its own. */
Object.defineProperty(DeadlineClient.prototype, 'query', {
  value: function boundedQuery(this: DeadlineClient, ...args: unknown[]): unknown {
    const result = query.apply(this, args);
    if (!isPromise(result)) return result;
    const bound = this.boundNow();
    // Rejections of a statement sent before the watch existed end the same way (`failed`).
    if (bound instanceof DeadlineWatch) return this.watched(result, bound);
    if (bound === null) return result;
    const settled = this.startAnswerTimer();
    return result.then(
      (value) => {
        settled();
        return value;
      },
      (error: Error) => {
        throw settled() ? new DatabaseDeadlineError('answer') : error;
      },
    );
  },
});
