import { readFileSync } from 'node:fs';

/**
 * What share of a process's CPU went to some code: reads a V8 CPU profile (`node --cpu-prof`) and
 * counts the samples whose stack holds a frame from a matching file, inclusive (a sample counts once
 * however many matching frames its stack has). Idle samples (`(idle)`) are left out of the total (native work and GC stay in it), so
 * the share is of the CPU the process used, which is what the bench's "server CPU per request" is.
 * Being a share of one profile, it does not move with the machine's speed the way two timed runs do.
 *
 *   node dist/bench/profile-share.js [--from <seconds>] <file.cpuprofile> <regexp over the frame's URL> [<regexp>...]
 *
 * `--from` leaves out the samples of the profile's first seconds (a server's start, before the load).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds from the previous sample (the first: from the profile's start). */
  timeDeltas?: number[];
}

export function shareOf(profile: CpuProfile, pattern: RegExp, fromSeconds = 0): { samples: number; matching: number; share: number } {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const matches = new Map<number, boolean>();
  const matching = (id: number): boolean => {
    const known = matches.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const up = parent.get(id);
    const result = pattern.test(node.callFrame.url) || (up !== undefined && matching(up));
    matches.set(id, result);
    return result;
  };
  let samples = 0;
  let hits = 0;
  let at = 0;
  for (const [index, id] of profile.samples.entries()) {
    at += profile.timeDeltas?.[index] ?? 0;
    if (at < fromSeconds * 1e6) continue;
    const name = byId.get(id)!.callFrame.functionName;
    if (name === '(idle)') continue;
    samples++;
    if (matching(id)) hits++;
  }
  return { samples, matching: hits, share: samples === 0 ? 0 : hits / samples };
}

if (process.argv[1]?.endsWith('profile-share.js')) {
  const args = process.argv.slice(2);
  const from = args[0] === '--from' ? Number(args.splice(0, 2)[1]) : 0;
  const [file, ...patterns] = args;
  if (!file || patterns.length === 0 || !Number.isFinite(from)) {
    console.error('usage: node dist/bench/profile-share.js [--from <seconds>] <file.cpuprofile> <regexp> [<regexp>...]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  for (const source of patterns) {
    const { samples, matching, share } = shareOf(profile, new RegExp(source), from);
    console.log(`${source}: ${matching} of ${samples} samples, ${(share * 100).toFixed(2)}%`);
  }
}
