import autocannon from 'autocannon';

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  requests: number;
}

export type LoadOptions = Omit<autocannon.Options, 'url'> & { url: string };

function once(options: LoadOptions): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** A warm-up run (discarded), then the measured run. */
export async function measure(options: LoadOptions, seconds: number, warmupSeconds: number): Promise<Figures> {
  if (warmupSeconds > 0) await once({ ...options, duration: warmupSeconds });
  const result = await once({ ...options, duration: seconds });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}
