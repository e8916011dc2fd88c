import autocannon from 'autocannon';
import { perRequest, type CpuMeter } from './cpu.js';

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  requests: number;
  /** Bytes the server sent per answer, headers included (compressed answers are smaller). */
  bytesPerRequest?: number;
  /** CPU time of the server processes and of the database backends per request (Linux). */
  serverUsPerRequest?: number;
  dbUsPerRequest?: number;
}

export type LoadOptions = Omit<autocannon.Options, 'url'> & { url: string };

/** Called for every answer of a run, with its status and latency. */
export type ResponseListener = (status: number, latencyMs: number) => void;

/** One autocannon run. */
export function once(options: LoadOptions, onResponse?: ResponseListener): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (onResponse) instance.on('response', (_client, status, _bytes, latencyMs) => onResponse(status, latencyMs));
  });
}

/** The value below which `fraction` of the values lie (nearest rank), 0 for none. */
export function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

/** A warm-up run (discarded), then the measured run (with the CPU it cost, when a meter is given). */
export async function measure(options: LoadOptions, seconds: number, warmupSeconds: number, meter?: CpuMeter): Promise<Figures> {
  if (warmupSeconds > 0) await once({ ...options, duration: warmupSeconds });
  await meter?.start();
  const result = await once({ ...options, duration: seconds });
  const cpu = await meter?.stop();
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    bytesPerRequest: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : undefined,
    ...perRequest(cpu, result.requests.total),
  };
}
