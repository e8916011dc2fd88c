import { readFileSync } from 'node:fs';
import { processTree } from './cpu.js';

/**
 * Resident memory (RSS) of the server's processes, read from /proc (Linux; elsewhere nothing is
 * reported): the process started and its cluster workers, each on its own.
 */
export function residentMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return kb ? Math.round(Number(kb[1]) / 102.4) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** RSS of each process of the server, keyed `primary` (the process started) and `worker <pid>`. */
export function residentOfServer(serverPid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pid of processTree(serverPid)) {
    const mb = residentMb(pid);
    if (mb !== undefined) out[pid === serverPid ? 'primary' : `worker ${pid}`] = mb;
  }
  return out;
}

export interface Sample {
  /** Seconds since sampling began. */
  t: number;
  mb: Record<string, number>;
}

/** Samples the server's RSS every `intervalMs` until stopped. */
export function sampleResident(serverPid: number, intervalMs: number): { stop(): Sample[] } {
  const started = performance.now();
  const samples: Sample[] = [];
  const take = () => samples.push({ t: Math.round(performance.now() - started) / 1000, mb: residentOfServer(serverPid) });
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** Per process: the largest and the mean RSS of the samples. */
export function peakAndMean(samples: Sample[]): Record<string, { peakMb: number; meanMb: number }> {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.mb)))];
  return Object.fromEntries(names.map((name) => {
    const values = samples.map((s) => s.mb[name]).filter((v) => v !== undefined);
    return [name, { peakMb: Math.max(...values), meanMb: Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10 }];
  }));
}

/** Least-squares slope of y over x (0 for fewer than two points). */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  if (sxx === 0) return 0;
  return points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

/**
 * A soak's verdict per process: RSS at the start, the end and its peak, and its growth in MB per
 * minute over the whole soak and over its second half. Caches fill in the first minutes; a process
 * that grows without bound still grows in the second half, one that has settled does not.
 */
export function soakGrowth(samples: Sample[]) {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.mb)))];
  const end = samples.at(-1)?.t ?? 0;
  return Object.fromEntries(names.map((name) => {
    const points = samples.filter((s) => s.mb[name] !== undefined).map((s) => ({ x: s.t / 60, y: s.mb[name] }));
    const secondHalf = points.filter((p) => p.x * 60 >= end / 2);
    const mbPerMinute = (ps: { x: number; y: number }[]) => Math.round(slope(ps) * 100) / 100;
    return [name, {
      startMb: points[0]?.y,
      endMb: points.at(-1)?.y,
      peakMb: Math.max(...points.map((p) => p.y)),
      mbPerMinute: mbPerMinute(points),
      mbPerMinuteSecondHalf: mbPerMinute(secondHalf),
    }];
  }));
}
