import { currentScope, mergedScope, runInScope, type RequestScope } from './request-scope.js';

/**
 * Combines concurrent statements of one kind into one statement: the token lookups of many requests,
 * the checkout writes of many customers (group commit, done by the application).
 *
 * While fewer than `maxInFlight` statements of this kind are running, a submitted input runs at once,
 * alone: an idle server adds no wait. Under load, inputs that arrive while the statements are running
 * wait, and the next statement takes all of them (up to `maxBatch`). One statement for many inputs
 * is one round trip instead of many, and for writes one commit and one turn at each hot row (a
 * flash-sale item, a popular SKU): contended rows are locked once per batch instead of being handed
 * from one waiting statement to the next.
 *
 * A statement is all or nothing, so one input that cannot be written (a guard fails) fails its whole
 * batch. `settle` then says which inputs fail and how (the statement's error names what fell short);
 * the others run again together. Without it, each input of a failed batch runs alone, so each gets
 * its own outcome: the others succeed, the failing one gets its own error.
 *
 * With `keyOf`, two inputs with the same key never go into one batch, nor into two batches running
 * at the same time (a customer's double-clicked checkout waits for the first): such inputs touch the
 * same rows, and apart they fail or succeed one after the other as they would without combining,
 * without two batches locking each other's rows in opposite orders.
 */
export class StatementCombiner<I, O> {
  private readonly queue: Pending<I, O>[] = [];
  private readonly busyKeys = new Set<unknown>();
  private inFlight = 0;

  constructor(
    /** Runs the inputs in one statement; returns one output per input, in order. */
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly options: {
      keyOf?: (input: I) => unknown;
      /**
       * After a batch failed: for each input, the error it fails with (its own statement would
       * fail the same way), or undefined to run it again with the others. Without an answer (or
       * with no input failing), each input runs alone.
       */
      settle?: (error: unknown, inputs: I[]) => unknown[] | undefined;
      maxInFlight: number;
      maxBatch: number;
    },
  ) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, key: this.options.keyOf ? this.options.keyOf(input) : NO_KEY, scope: currentScope(), resolve, reject });
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.inFlight < this.options.maxInFlight) {
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      this.inFlight++;
      for (const p of batch) this.busyKeys.add(p.key);
      void this.runBatch(batch).finally(() => {
        this.inFlight--;
        for (const p of batch) this.busyKeys.delete(p.key);
        this.startBatches();
      });
    }
  }

  /** The oldest waiting inputs whose keys are free, in arrival order; the others keep their place. */
  private takeBatch(): Pending<I, O>[] {
    const batch: Pending<I, O>[] = [];
    const keys = new Set<unknown>();
    for (let i = 0; i < this.queue.length && batch.length < this.options.maxBatch; ) {
      const p = this.queue[i];
      if (p.key !== NO_KEY && (this.busyKeys.has(p.key) || keys.has(p.key))) {
        i++;
        continue;
      }
      keys.add(p.key);
      batch.push(p);
      this.queue.splice(i, 1);
    }
    return batch;
  }

  private async runBatch(batch: Pending<I, O>[]): Promise<void> {
    try {
      // The statement works for every request of the batch: it waits as long as the last of them
      // would (a batch started when an earlier one ended would otherwise carry that one's deadline).
      const outputs = await runInScope(mergedScope(batch.map((p) => p.scope)), () => this.run(batch.map((p) => p.input)));
      batch.forEach((p, i) => p.resolve(outputs[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      const verdicts = this.verdictsOn(error, batch);
      if (!verdicts || verdicts.every((v) => v === undefined)) {
        // Nothing says which input failed the batch: each runs alone and gets its own outcome.
        await Promise.all(batch.map((p) => this.runBatch([p])));
        return;
      }
      const again = batch.filter((p, i) => {
        if (verdicts[i] !== undefined) p.reject(verdicts[i]);
        return verdicts[i] === undefined;
      });
      if (again.length > 0) await this.runBatch(again);
    }
  }

  /** `settle`'s answer; a `settle` that throws is no answer (every input then runs alone). */
  private verdictsOn(error: unknown, batch: Pending<I, O>[]): unknown[] | undefined {
    try {
      return this.options.settle?.(error, batch.map((p) => p.input));
    } catch {
      return undefined;
    }
  }
}

const NO_KEY = Symbol('no key');

interface Pending<I, O> {
  input: I;
  key: unknown;
  /** The submitting request's scope (deadline, writing). */
  scope: RequestScope | undefined;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}
