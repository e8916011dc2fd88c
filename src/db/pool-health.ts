import pg from 'pg';
import { DeadlineClient, KEEPALIVE, type DeadlinePoolConfig } from './deadline-client.js';

/** How long a probe waits for an answer before it counts as none. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * What `/readyz` and `/healthz` report about the database pool.
 *
 * Readiness: the database answers, on a connection of the probe's own. It fails while the database
 * is unreachable or frozen and recovers by itself when it comes back. It does not depend on the
 * pool: a pool whose connections all wait (for a row locked from outside, say) is not a database
 * that is away, and answering 503 then would take a server out of its load balancer for nothing.
 *
 * Liveness fails only when the pool is stuck: it has handed out no connection for `stuckAfterMs`,
 * cannot hand one out now, and yet a fresh connection to the database works. Then the process
 * cannot recover by itself and a restart helps. A database outage alone keeps liveness green, so an
 * orchestrator never restarts every server because the database is away.
 */
export class PoolHealth {
  private lastGivenAt = Date.now();
  /** One connection for readiness probes; one that does not answer in time is cut and made again. */
  private readonly probe: pg.Pool;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: { clientUrl: string; stuckAfterMs: number },
  ) {
    pool.on('acquire', () => {
      this.lastGivenAt = Date.now();
    });
    const probeConfig: DeadlinePoolConfig = {
      connectionString: options.clientUrl,
      max: 1,
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
      Client: DeadlineClient,
      answerTimeoutMs: PROBE_TIMEOUT_MS,
      application_name: 'mallfront-readiness',
      ...KEEPALIVE,
    };
    this.probe = new pg.Pool(probeConfig);
    // A connection lost while idle or in use is the probe's answer, not a crash.
    this.probe.on('error', () => undefined);
    this.probe.on('connect', (client) => client.on('error', () => undefined));
  }

  async ready(): Promise<boolean> {
    return withinProbeTime(this.probeAnswers());
  }

  private async probeAnswers(): Promise<boolean> {
    const client = await this.probe.connect();
    let failed: Error | undefined;
    try {
      await client.query('select 1');
      return true;
    } catch (error) {
      failed = error as Error;
      throw error;
    } finally {
      client.release(failed);
    }
  }

  close(): Promise<void> {
    return this.probe.end();
  }

  async live(): Promise<boolean> {
    if (Date.now() - this.lastGivenAt < this.options.stuckAfterMs) return true;
    // Quiet for a while: an idle server, or a stuck pool. Ask it for a connection.
    if (await this.poolGivesConnection()) return true;
    return !(await this.freshConnectionAnswers());
  }

  private async poolGivesConnection(): Promise<boolean> {
    const acquiring = this.pool.connect();
    const given = await withinProbeTime(acquiring.then(() => true));
    // A connection that arrives after the probe gave up still goes back to the pool.
    void acquiring.then((client) => client.release(), () => undefined);
    return given;
  }

  private async freshConnectionAnswers(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.options.clientUrl, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      return await withinProbeTime(client.connect().then(() => client.query('select 1')).then(() => true));
    } finally {
      void client.end().catch(() => undefined);
    }
  }
}

/** The probe's answer, or false when it fails or takes longer than the probe time. */
function withinProbeTime(probe: Promise<boolean>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    timer.unref();
    probe.then(
      (answer) => {
        clearTimeout(timer);
        resolve(answer);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}
