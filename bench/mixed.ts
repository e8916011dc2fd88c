import { once, percentile, type LoadOptions } from './load.js';
import { MIXED_READS } from './reads.js';
import { burstSummary, customerLoop, flashSaleBurst, standInForAutovacuum, type Burst } from './writes.js';
import { MIXED_READERS, MIXED_WRITERS } from './options.js';
import type { BenchContext } from './context.js';

/** Every answer of the reads, with the moment it came (performance.now()). */
interface Answer {
  read: string;
  at: number;
  latencyMs: number;
  ok: boolean;
}

function readFigures(answers: Answer[], seconds: number) {
  const ok = answers.filter((a) => a.ok);
  const per = Object.fromEntries(MIXED_READS.map(({ name }) => {
    const own = ok.filter((a) => a.read === name);
    const latencies = own.map((a) => a.latencyMs);
    return [name, { requestsPerSecond: Math.round(own.length / seconds), p50Ms: round(percentile(latencies, 0.5)), p99Ms: round(percentile(latencies, 0.99)) }];
  }));
  return {
    requestsPerSecond: Math.round(ok.length / seconds),
    p50Ms: round(percentile(ok.map((a) => a.latencyMs), 0.5)),
    p99Ms: round(percentile(ok.map((a) => a.latencyMs), 0.99)),
    non2xx: answers.length - ok.length,
    perRead: per,
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * The storefront's reads (MIXED_READS, spread evenly over MIXED_READERS connections) for the bench's
 * seconds, while `writes` runs beside them; returns every answer and the load generator's errors.
 */
async function readsWhile(ctx: BenchContext, seconds: number, writes: (until: number) => Promise<unknown> = async () => {}) {
  const answers: Answer[] = [];
  const each = MIXED_READERS / MIXED_READS.length;
  const until = performance.now() + seconds * 1000;
  const [results] = await Promise.all([
    Promise.all(MIXED_READS.map((target) =>
      once({ ...target.request(ctx), connections: each, duration: seconds } as LoadOptions, (status, latencyMs) => {
        answers.push({ read: target.name, at: performance.now(), latencyMs, ok: status >= 200 && status < 300 });
      }),
    )),
    writes(until),
  ]);
  return { answers, errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0) };
}

/**
 * Issue 33, item 2: the storefront read while a sale writes. Three runs of the same reads at
 * MIXED_READERS connections: alone; while flash-sale bursts follow each other (BURST_BUYERS buyers at
 * once on one SKU); and while MIXED_WRITERS customers check out and pay continuously, each on a SKU
 * of their own. Reports the reads' p99 beside the write rate of the same seconds; for the bursts
 * also the p99 of the reads answered while a burst was selling (between its first checkout and its
 * last answer), since a burst lasts a fraction of a second.
 *
 * Each run starts warm (see `warm`) and ends drained (answers still in flight are waited for). The paying run comes last: every payment moves sold_count, after which
 * the sales and relevance rankings are computed again, and a run after it would begin by paying
 * for that.
 */
export async function mixedTraffic(ctx: BenchContext) {
  const { seconds, warmup } = ctx.options;
  const drain = () => new Promise((r) => setTimeout(r, 1000));
  // Warm: the reads alone, a round at a time, until a round answers everything and its p99 is
  // close to the round's before (at least two rounds, at most five). A cold process ranks the sales listing and
  // the common word on each pool connection first, which at 1,000,000 products takes seconds.
  const warm = async () => {
    let before = Number.NaN;
    for (let round = 0; warmup > 0 && round < 5; round++) {
      const { answers, errors } = await readsWhile(ctx, warmup);
      const p99 = percentile(answers.map((a) => a.latencyMs), 0.99);
      if (errors === 0 && answers.every((a) => a.ok) && p99 <= before * 1.5) return;
      before = p99;
    }
  };
  await standInForAutovacuum(ctx);

  await warm();
  const alone = await readsWhile(ctx, seconds);
  await drain();

  await warm();
  const bursts: Burst[] = [];
  const withBursts = await readsWhile(ctx, seconds, async (until) => {
    while (performance.now() < until) bursts.push(await flashSaleBurst(ctx, false));
  });
  const duringBursts = withBursts.answers.filter((a) => a.ok && bursts.some((b) => a.at >= b.startedAt && a.at <= b.endedAt));
  await drain();

  await warm();
  const loop = customerLoop(ctx, MIXED_WRITERS, true);
  let writeP99Ms = 0;
  const withCheckouts = await readsWhile(ctx, seconds, async () => {
    writeP99Ms = (await once({ ...loop.options, duration: seconds })).latency.p99;
  });
  await drain();
  if (loop.refusals.total > 0) ctx.log(`mixed traffic, checkout and payment refusals: ${JSON.stringify(loop.refusals)}`);

  return {
    readConnections: MIXED_READERS,
    readsAlone: { ...readFigures(alone.answers, seconds), errors: alone.errors },
    withFlashSaleBursts: {
      reads: { ...readFigures(withBursts.answers, seconds), errors: withBursts.errors },
      readsWhileSelling: { answers: duringBursts.length, p99Ms: round(percentile(duringBursts.map((a) => a.latencyMs), 0.99)) },
      ...burstSummary(bursts),
    },
    withCheckoutAndPay: {
      writeConnections: MIXED_WRITERS,
      reads: { ...readFigures(withCheckouts.answers, seconds), errors: withCheckouts.errors },
      checkoutsPerSecond: Math.round(loop.placed / seconds),
      paymentsPerSecond: Math.round(loop.paid / seconds),
      writeP99Ms,
      writeRefusals: loop.refusals.toJSON(),
    },
  };
}
