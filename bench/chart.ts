/**
 * The cost-curve chart: requests per second and p99 against data size, one row per scenario, one
 * line per server process count, every point labelled with its value. Hand-written SVG from the
 * figures: a chart library would be a dependency for one picture.
 */
export interface CurvePoint {
  products: number;
  orderLines: number;
  /** Per process count ("1", "2"): per scenario, its figures. */
  processes: Record<string, Record<string, { requestsPerSecond: number; p99Ms: number }>>;
}

export interface ChartText {
  title: string;
  /** Under the title: where and when the figures were taken. */
  subtitle: string;
}

const CELL_W = 330;
const CELL_H = 104;
const LABEL_W = 310;
/** Room between the axes and the first and last sizes, for the points' labels. */
const INSET = 26;
const PAD = { top: 22, right: 44, bottom: 32, left: 44 };
const HEADER = 96;
const SERIES = [
  { stroke: '#1f5fa8', dash: '' },
  { stroke: '#d9731a', dash: '6 4' },
  { stroke: '#3c8c3c', dash: '2 3' },
];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** 10,000 -> "10k", 1,000,000 -> "1M". */
export function shortCount(n: number): string {
  if (n >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${+(n / 1e3).toFixed(1)}k`;
  return String(n);
}

const shortValue = (v: number) => (v >= 100 ? String(Math.round(v)) : String(+v.toFixed(1)));

/** A round upper bound for an axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * power).find((c) => c >= max)!;
}

export function costCurveSvg(points: CurvePoint[], text: ChartText): string {
  const sorted = [...points].sort((a, b) => a.products - b.products);
  const processCounts = [...new Set(sorted.flatMap((p) => Object.keys(p.processes)))].sort((a, b) => Number(a) - Number(b));
  const scenarios = [...new Set(sorted.flatMap((p) => processCounts.flatMap((n) => Object.keys(p.processes[n] ?? {}))))]
    .filter((name) => sorted.some((p) => processCounts.some((n) => p.processes[n]?.[name]?.requestsPerSecond !== undefined)));
  const width = LABEL_W + 2 * CELL_W + 20;
  const height = HEADER + scenarios.length * CELL_H + 30;
  const logs = sorted.map((p) => Math.log10(p.products));
  const [lo, hi] = [Math.min(...logs), Math.max(...logs)];
  const plotW = CELL_W - PAD.left - PAD.right;
  const plotH = CELL_H - PAD.top - PAD.bottom;
  const xOf = (products: number) => PAD.left + INSET + (hi === lo ? (plotW - 2 * INSET) / 2 : ((Math.log10(products) - lo) / (hi - lo)) * (plotW - 2 * INSET));

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="12" y="22" font-size="16" font-weight="bold">${escape(text.title)}</text>`);
  out.push(`<text x="12" y="40" fill="#444">${escape(text.subtitle)}</text>`);
  out.push(`<text x="12" y="56" fill="#444">Data sizes: ${sorted.map((p) => `${shortCount(p.products)} products / ${shortCount(p.orderLines)} order lines`).join(', ')} (x axis: products, log scale)</text>`);
  processCounts.forEach((n, i) => {
    const x = 12 + i * 150;
    const s = SERIES[i % SERIES.length];
    out.push(`<line x1="${x}" y1="72" x2="${x + 26}" y2="72" stroke="${s.stroke}" stroke-width="2" stroke-dasharray="${s.dash}"/>`);
    out.push(`<text x="${x + 32}" y="76">${n} server process${n === '1' ? '' : 'es'}</text>`);
  });
  out.push(`<text x="${LABEL_W + CELL_W / 2}" y="${HEADER - 6}" text-anchor="middle" font-weight="bold">Requests per second</text>`);
  out.push(`<text x="${LABEL_W + CELL_W + CELL_W / 2}" y="${HEADER - 6}" text-anchor="middle" font-weight="bold">p99 latency (ms)</text>`);

  scenarios.forEach((name, row) => {
    const y0 = HEADER + row * CELL_H;
    if (row % 2 === 0) out.push(`<rect x="0" y="${y0}" width="${width}" height="${CELL_H}" fill="#f5f7fa"/>`);
    // A long name goes on two lines, broken before its parenthesis.
    const cut = name.length > 44 ? name.indexOf(' (') : -1;
    const lines = cut > 0 ? [name.slice(0, cut), name.slice(cut + 1)] : [name];
    lines.forEach((line, i) => out.push(`<text x="12" y="${y0 + CELL_H / 2 + 4 + (i - (lines.length - 1) / 2) * 14}">${escape(line)}</text>`));
    (['requestsPerSecond', 'p99Ms'] as const).forEach((metric, col) => {
      const x0 = LABEL_W + col * CELL_W;
      const values = sorted.flatMap((p) => processCounts.map((n) => p.processes[n]?.[name]?.[metric])).filter((v): v is number => v !== undefined);
      const top = niceCeiling(Math.max(...values));
      const yOf = (v: number) => y0 + PAD.top + plotH - (v / top) * plotH;
      out.push(`<g transform="translate(${x0},0)">`);
      out.push(`<line x1="${PAD.left}" y1="${y0 + PAD.top + plotH}" x2="${PAD.left + plotW}" y2="${y0 + PAD.top + plotH}" stroke="#999"/>`);
      out.push(`<line x1="${PAD.left}" y1="${y0 + PAD.top}" x2="${PAD.left}" y2="${y0 + PAD.top + plotH}" stroke="#999"/>`);
      out.push(`<text x="${PAD.left - 4}" y="${y0 + PAD.top + 4}" text-anchor="end" fill="#666">${shortValue(top)}</text>`);
      out.push(`<text x="${PAD.left - 4}" y="${y0 + PAD.top + plotH + 4}" text-anchor="end" fill="#666">0</text>`);
      for (const p of sorted) out.push(`<text x="${xOf(p.products)}" y="${y0 + CELL_H - 6}" text-anchor="middle" fill="#666">${shortCount(p.products)}</text>`);
      processCounts.forEach((n, i) => {
        const s = SERIES[i % SERIES.length];
        const line = sorted.filter((p) => p.processes[n]?.[name]?.[metric] !== undefined).map((p) => ({ point: p, x: xOf(p.products), y: yOf(p.processes[n][name][metric]), v: p.processes[n][name][metric] }));
        if (line.length === 0) return;
        out.push(`<polyline fill="none" stroke="${s.stroke}" stroke-width="2" stroke-dasharray="${s.dash}" points="${line.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(' ')}"/>`);
        for (const q of line) {
          out.push(`<circle cx="${q.x.toFixed(1)}" cy="${q.y.toFixed(1)}" r="2.5" fill="${s.stroke}"/>`);
          // The highest figure at this size is labelled above its point, the others below: close lines stay readable.
          const here = processCounts.map((m) => q.point.processes[m]?.[name]?.[metric] ?? -Infinity);
          const above = here.indexOf(Math.max(...here)) === i;
          out.push(`<text x="${q.x.toFixed(1)}" y="${(q.y + (above ? -6 : 14)).toFixed(1)}" text-anchor="middle" fill="${s.stroke}" font-size="10">${shortValue(q.v)}</text>`);
        }
      });
      out.push('</g>');
    });
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
