// chart.svg: read cost against table size (Query vs Scan) beside the warm latency distribution
// (handler vs bare Query). Hand-written SVG: two panels of lines on linear axes.

import type { BenchResults } from './results.ts';

const W = 420;
const H = 260;
const PAD = { left: 56, right: 16, top: 36, bottom: 44 };
const COLORS = { a: '#2b7a3d', b: '#c0392b' };

type Series = { label: string; color: string; points: [number, number][] };

export function renderChart(r: BenchResults): string {
  const cost = panel('Read cost per request vs table size', "other users' plants", 'read capacity units', [
    {
      label: 'Query (handler)',
      color: COLORS.a,
      points: r.readCost.map((p) => [p.otherUsersPlants, p.queryCapacityUnits]),
    },
    {
      label: 'Scan with filter',
      color: COLORS.b,
      points: r.readCost.map((p) => [p.otherUsersPlants, p.scanCapacityUnits]),
    },
  ]);
  const shares = (h: BenchResults['warm']['handler']) =>
    h.histogram.counts.map((count, i): [number, number] => [
      ((i + 0.5) * h.histogram.binUs) / 1000,
      (100 * count) / h.invocations,
    ]);
  const latency = panel('Warm latency distribution', 'latency (ms)', '% of invocations', [
    { label: `handler (p50 ${r.warm.handler.p50Ms} ms)`, color: COLORS.a, points: shares(r.warm.handler) },
    { label: `bare Query (p50 ${r.warm.bare.p50Ms} ms)`, color: COLORS.b, points: shares(r.warm.bare) },
  ]);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<title>Plant store benchmark: read cost vs table size, warm latency distribution</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    cost,
    `<g transform="translate(${W},0)">${latency}</g>`,
    `</svg>\n`,
  ].join('\n');
}

function panel(title: string, xLabel: string, yLabel: string, series: Series[]): string {
  const all = series.flatMap((s) => s.points);
  const xMax = nice(Math.max(...all.map(([x]) => x)));
  const yMax = nice(Math.max(...all.map(([, y]) => y)));
  const x = (v: number) => PAD.left + (v / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const parts = [
    `<text x="${W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${title}</text>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(xMax)}" y2="${y(0)}" stroke="#333"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(yMax)}" stroke="#333"/>`,
    ...ticks.map((t) => `<text x="${x(t * xMax)}" y="${y(0) + 14}" text-anchor="middle">${label(t * xMax)}</text>`),
    ...ticks.map((t) => `<text x="${x(0) - 4}" y="${y(t * yMax) + 4}" text-anchor="end">${label(t * yMax)}</text>`),
    `<text x="${(x(0) + x(xMax)) / 2}" y="${H - 10}" text-anchor="middle">${xLabel}</text>`,
    `<text transform="translate(12,${(y(0) + y(yMax)) / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text>`,
  ];
  series.forEach((s, i) => {
    const path = s.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    if (s.points.length <= 10) {
      for (const [px, py] of s.points) parts.push(`<circle cx="${x(px)}" cy="${y(py)}" r="3" fill="${s.color}"/>`);
    }
    parts.push(`<text x="${x(0) + 10}" y="${PAD.top + 4 + i * 14}" fill="${s.color}">${s.label}</text>`);
  });
  return parts.join('\n');
}

/** A round axis maximum at or above `value`: 1, 2 or 5 times a power of ten. */
function nice(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

function label(value: number): string {
  if (value >= 1000) return `${Number((value / 1000).toFixed(1))}k`;
  return String(Number(value.toPrecision(3)));
}
