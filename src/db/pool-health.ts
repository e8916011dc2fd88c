import pg from 'pg';

/** How long a probe waits for an answer before it counts as none. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * What `/readyz` and `/healthz` report about the database pool.
 *
 * Readiness: the pool gives a connection that answers. It fails while the database is unreachable
 * and recovers by itself when it comes back (the pool opens new connections on demand).
 *
 * Liveness fails only when the pool is stuck: it has handed out no connection for `stuckAfterMs`,
 * cannot hand one out now, and yet a fresh connection to the database works. Then the process
 * cannot recover by itself and a restart helps. A database outage alone keeps liveness green, so an
 * orchestrator never restarts every server because the database is away.
 */
export class PoolHealth {
  private lastGivenAt = Date.now();

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: { clientUrl: string; stuckAfterMs: number },
  ) {
    pool.on('acquire', () => {
      this.lastGivenAt = Date.now();
    });
  }

  ready(): Promise<boolean> {
    return withinProbeTime(this.pool.query('select 1').then(() => true));
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
