import { StatementCombiner } from '../src/db/statement-combiner.js';

/**
 * The combining rules on their own, with a statement that only records its batches (no database:
 * what is under test is who goes into which batch, and who gets which outcome). The checkout and
 * token lookups that use it are tested against PostgreSQL in checkout-combining.test.ts.
 */
interface Recorder {
  batches: number[][];
  running: number;
  maxRunning: number;
  release(): void;
}

/** A statement whose batches stay open until `release()`, so a test controls what waits. */
function recorder(fail?: (batch: number[]) => Error | undefined): { rec: Recorder; run: (inputs: number[]) => Promise<string[]> } {
  const waiting: (() => void)[] = [];
  const rec: Recorder = {
    batches: [],
    running: 0,
    maxRunning: 0,
    release: () => waiting.splice(0).forEach((go) => go()),
  };
  const run = async (inputs: number[]) => {
    rec.batches.push([...inputs]);
    rec.running++;
    rec.maxRunning = Math.max(rec.maxRunning, rec.running);
    await new Promise<void>((go) => waiting.push(go));
    rec.running--;
    const error = fail?.(inputs);
    if (error) throw error;
    return inputs.map((i) => `out ${i}`);
  };
  return { rec, run };
}

/** Releases open batches until every promise settled. */
async function drain(rec: Recorder, promises: Promise<unknown>[]) {
  let settled = false;
  const all = Promise.allSettled(promises).then((r) => {
    settled = true;
    return r;
  });
  while (!settled) {
    await new Promise((r) => setImmediate(r));
    rec.release();
  }
  return all;
}

it('runs an input at once while fewer than maxInFlight statements run, and combines what waits', async () => {
  const { rec, run } = recorder();
  const combiner = new StatementCombiner(run, { maxInFlight: 2, maxBatch: 10 });
  const outputs = [1, 2, 3, 4, 5].map((i) => combiner.submit(i));
  expect(rec.batches).toEqual([[1], [2]]);
  const results = await drain(rec, outputs);
  expect(rec.batches).toEqual([[1], [2], [3, 4, 5]]);
  expect(rec.maxRunning).toBe(2);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(['out 1', 'out 2', 'out 3', 'out 4', 'out 5']);
});

it('takes at most maxBatch inputs per statement, oldest first', async () => {
  const { rec, run } = recorder();
  const combiner = new StatementCombiner(run, { maxInFlight: 1, maxBatch: 3 });
  const outputs = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => combiner.submit(i));
  await drain(rec, outputs);
  expect(rec.batches).toEqual([[1], [2, 3, 4], [5, 6, 7], [8]]);
});

it('never puts two inputs with the same key into one batch or into two batches running at once', async () => {
  const { rec, run } = recorder();
  const combiner = new StatementCombiner(run, { maxInFlight: 2, maxBatch: 10, keyOf: (i: number) => i % 10 });
  // 1 runs; 11 has its key and waits; 2 runs beside 1; then 3, 12, 21 wait.
  const outputs = [1, 11, 2, 3, 12, 21].map((i) => combiner.submit(i));
  expect(rec.batches).toEqual([[1], [2]]);
  await drain(rec, outputs);
  for (let b = 0; b < rec.batches.length; b++) {
    const keys = rec.batches[b].map((i) => i % 10);
    expect(new Set(keys).size).toBe(keys.length);
  }
  expect(rec.batches.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 11, 12, 21]);
  // 11 never ran beside 1, nor 21 beside 11 (both key 1): they went in later batches, in order.
  const batchOf = (i: number) => rec.batches.findIndex((b) => b.includes(i));
  expect(batchOf(11)).toBeGreaterThan(batchOf(1));
  expect(batchOf(21)).toBeGreaterThan(batchOf(11));
});

it('after a failed batch, rejects those settle names and runs the rest again together', async () => {
  const refused = new Error('refused 4');
  const { rec, run } = recorder((batch) => (batch.includes(4) ? refused : undefined));
  const combiner = new StatementCombiner(run, {
    maxInFlight: 1,
    maxBatch: 10,
    settle: (error, inputs: number[]) => inputs.map((i) => (error === refused && i === 4 ? error : undefined)),
  });
  const outputs = [1, 2, 3, 4, 5].map((i) => combiner.submit(i));
  const results = await drain(rec, outputs);
  expect(rec.batches).toEqual([[1], [2, 3, 4, 5], [2, 3, 5]]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['out 1', 'out 2', 'out 3', 'refused 4', 'out 5']);
});

it('without an answer from settle, runs each input of a failed batch alone', async () => {
  const { rec, run } = recorder((batch) => (batch.includes(3) ? new Error(`bad ${batch.join(',')}`) : undefined));
  const combiner = new StatementCombiner(run, { maxInFlight: 1, maxBatch: 10, settle: () => undefined });
  const outputs = [1, 2, 3, 4].map((i) => combiner.submit(i));
  const results = await drain(rec, outputs);
  expect(rec.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['out 1', 'out 2', 'bad 3', 'out 4']);
});

it('hands the error of a statement run alone to its one input', async () => {
  const { rec, run } = recorder(() => new Error('down'));
  const combiner = new StatementCombiner(run, { maxInFlight: 1, maxBatch: 10 });
  const [result] = await drain(rec, [combiner.submit(7)]);
  expect(result).toMatchObject({ status: 'rejected', reason: new Error('down') });
  expect(rec.batches).toEqual([[7]]);
});

it('settles every input even when the statement throws before returning a promise and settle throws', async () => {
  let calls = 0;
  const run = (inputs: number[]): Promise<string[]> => {
    calls++;
    if (inputs.includes(2)) throw new Error('sync failure');
    return Promise.resolve(inputs.map((i) => `out ${i}`));
  };
  const combiner = new StatementCombiner(run, {
    maxInFlight: 1,
    maxBatch: 10,
    settle: () => {
      throw new Error('settle failed');
    },
  });
  const results = await Promise.allSettled([1, 2, 3].map((i) => combiner.submit(i)));
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['out 1', 'sync failure', 'out 3']);
  // [1], then [2, 3] failed, then 2 and 3 alone; and the combiner still takes new work.
  expect(calls).toBe(4);
  await expect(combiner.submit(4)).resolves.toBe('out 4');
});
