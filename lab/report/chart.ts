// chart.svg: read cost against table size (Query vs Scan), the warm latency distribution (handler
// vs bare Query), and the cold start by phase (loopback, and over the modelled round trip when
// measured). Hand-written SVG; every series differs by dash, marker or fill pattern as well as by
// colour, and carries its own label, so the chart reads in greyscale and without colour vision.

import type { BenchResults } from '../results.ts';

const W = 420;
const H = 280;
const PAD = { left: 56, right: 16, top: 36, bottom: 44 };
const INK = { a: '#1b5e20', b: '#b71c1c', c: '#0d47a1' };

interface Series {
  label: string;
  color: string;
  /** SVG stroke-dasharray, or undefined for a solid line. */
  dash?: string;
  marker: 'circle' | 'square' | 'none';
  points: [number, number][];
  /** Writes each point's value beside it. */
  valueLabels?: (y: number) => string;
  /** Value labels below the points rather than above (two series meet at the first point). */
  labelBelow?: boolean;
  /** Only the last point's value is written (a flat line says the rest). */
  labelLastOnly?: boolean;
}

export function renderChart(r: BenchResults): string {
  const cost = linePanel(
    'Read cost per request vs table size',
    "other users' plants",
    'read capacity units (log)',
    true,
    [
      {
        label: 'Query (handler)',
        color: INK.a,
        marker: 'circle',
        points: r.readCost.map((p) => [p.otherUsersPlants, p.queryCapacityUnits]),
        valueLabels: (y) => `${y} RCU`,
        labelBelow: true,
        labelLastOnly: true,
      },
      {
        label: 'Scan with filter',
        color: INK.b,
        dash: '6 4',
        marker: 'square',
        points: r.readCost.map((p) => [p.otherUsersPlants, p.scanCapacityUnits]),
        valueLabels: (y) => `${y}`,
      },
    ],
  );
  const shares = (h: BenchResults['warm']['handler']) =>
    h.histogram.counts.map((count, i): [number, number] => [
      ((i + 0.5) * h.histogram.binUs) / 1000,
      (100 * count) / h.invocations,
    ]);
  const latency = linePanel('Warm latency distribution (tracing off)', 'latency (ms)', '% of invocations', false, [
    {
      label: `handler: p50 ${r.warm.handler.p50Ms}, p99 ${r.warm.handler.p99Ms} ms`,
      color: INK.a,
      marker: 'none',
      points: shares(r.warm.handler),
    },
    {
      label: `bare Query: p50 ${r.warm.bare.p50Ms}, p99 ${r.warm.bare.p99Ms} ms`,
      color: INK.b,
      dash: '6 4',
      marker: 'none',
      points: shares(r.warm.bare),
    },
  ]);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${3 * W}" height="${H}" font-family="sans-serif" font-size="11">`,
    '<title>Plant store benchmark: read cost vs table size, warm latency, cold start by phase</title>',
    '<defs>',
    `<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/><line x1="0" y1="0" x2="0" y2="6" stroke="${INK.c}" stroke-width="3"/></pattern>`,
    `<pattern id="dots" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="5" height="5" fill="#fff"/><circle cx="2.5" cy="2.5" r="1.3" fill="${INK.a}"/></pattern>`,
    '</defs>',
    '<rect width="100%" height="100%" fill="#fff"/>',
    cost,
    `<g transform="translate(${W},0)">${latency}</g>`,
    `<g transform="translate(${2 * W},0)">${phasePanel(r)}</g>`,
    '</svg>\n',
  ].join('\n');
}

function linePanel(title: string, xLabel: string, yLabel: string, logY: boolean, series: Series[]): string {
  const all = series.flatMap((s) => s.points);
  const xMax = nice(Math.max(...all.map(([x]) => x)));
  const yMax = logY
    ? 10 ** Math.ceil(Math.log10(Math.max(...all.map(([, v]) => v), 10)))
    : nice(Math.max(...all.map(([, v]) => v)));
  // A log axis starts a decade below 1, so a Query's 1 RCU sits clear of the axis line.
  const yMin = logY ? 0.1 : 0;
  const scale = (v: number) => (logY ? Math.log10(Math.max(v, yMin) / yMin) / Math.log10(yMax / yMin) : v / yMax);
  const x = (v: number) => PAD.left + (v / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - scale(v) * (H - PAD.top - PAD.bottom);
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * xMax);
  const yTicks = logY
    ? Array.from({ length: Math.round(Math.log10(yMax / yMin)) + 1 }, (_, i) => yMin * 10 ** i)
    : [0, 0.25, 0.5, 0.75, 1].map((t) => t * yMax);
  const parts = [
    `<text x="${W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${title}</text>`,
    `<line x1="${x(0)}" y1="${y(yMin)}" x2="${x(xMax)}" y2="${y(yMin)}" stroke="#333"/>`,
    `<line x1="${x(0)}" y1="${y(yMin)}" x2="${x(0)}" y2="${y(yMax)}" stroke="#333"/>`,
    ...xTicks.map((v) => `<text x="${x(v)}" y="${y(yMin) + 14}" text-anchor="middle">${label(v)}</text>`),
    ...yTicks.map((v) => `<text x="${x(0) - 4}" y="${y(v) + 4}" text-anchor="end">${label(v)}</text>`),
    `<text x="${(x(0) + x(xMax)) / 2}" y="${H - 10}" text-anchor="middle">${xLabel}</text>`,
    `<text transform="translate(12,${(y(yMin) + y(yMax)) / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text>`,
  ];
  series.forEach((s, i) => {
    const stroke = `stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}`;
    const path = s.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" ${stroke}/>`);
    for (const [index, [px, py]] of (s.marker === 'none' ? [] : s.points).entries()) {
      parts.push(marker(s, x(px), y(py)));
      if (s.valueLabels && (!s.labelLastOnly || index === s.points.length - 1)) {
        const anchor = px === xMax ? 'end' : 'start';
        parts.push(
          `<text x="${x(px) + (anchor === 'end' ? -6 : 6)}" y="${y(py) + (s.labelBelow ? 16 : -7)}" text-anchor="${anchor}" fill="${s.color}">${s.valueLabels(py)}</text>`,
        );
      }
    }
    // Legend: a sample of the line, its marker and its label.
    const ly = PAD.top + 6 + i * 15;
    const lx = W - PAD.right - 232;
    parts.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 24}" y2="${ly}" ${stroke}/>`);
    if (s.marker !== 'none') parts.push(marker(s, lx + 12, ly));
    parts.push(`<text x="${lx + 30}" y="${ly + 4}">${s.label}</text>`);
  });
  return parts.join('\n');
}

function marker(s: Series, cx: number, cy: number): string {
  if (s.marker === 'square') return `<rect x="${cx - 3.5}" y="${cy - 3.5}" width="7" height="7" fill="${s.color}"/>`;
  return `<circle cx="${cx}" cy="${cy}" r="3.5" fill="#fff" stroke="${s.color}" stroke-width="2"/>`;
}

/** Horizontal stacked bars: Node start-up, import (Lambda's INIT), first request; each labelled. */
function phasePanel(r: BenchResults): string {
  const { coldStart: c, network: n } = r;
  const bar = (name: string, s: { medianMs: number; medianImportMs: number; medianFirstRequestMs: number }) => ({
    name,
    phases: [s.medianMs - s.medianImportMs - s.medianFirstRequestMs, s.medianImportMs, s.medianFirstRequestMs],
  });
  const bars = [
    bar('trivial handler', c.trivial),
    bar('handler, loopback', c.handler),
    ...(n ? [bar(`loopback (paired run)`, n.loopback), bar(`${n.rttMs} ms round trip`, n.handler)] : []),
  ];
  const fills = [
    { fill: '#bdbdbd', name: 'Node start-up' },
    { fill: 'url(#hatch)', name: 'import (init)' },
    { fill: 'url(#dots)', name: 'first request' },
  ];
  const xMax = nice(Math.max(...bars.map((b) => b.phases.reduce((sum, v) => sum + v, 0))));
  const left = 118;
  // Room on the right for each bar's total.
  const x = (v: number) => left + (v / xMax) * (W - left - 150);
  const rowH = 30;
  const parts = [
    `<text x="${W / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">Cold start by phase (median)</text>`,
    ...[0, 0.5, 1].map((t) => `<text x="${x(t * xMax)}" y="${H - 30}" text-anchor="middle">${label(t * xMax)}</text>`),
    `<text x="${(x(0) + x(xMax)) / 2}" y="${H - 10}" text-anchor="middle">ms from process start to first response</text>`,
  ];
  bars.forEach((b, row) => {
    const top = PAD.top + 34 + row * (rowH + 10);
    parts.push(`<text x="${left - 6}" y="${top + rowH / 2 + 4}" text-anchor="end">${b.name}</text>`);
    let at = 0;
    b.phases.forEach((ms, i) => {
      const width = x(at + ms) - x(at);
      parts.push(
        `<rect x="${x(at)}" y="${top}" width="${Math.max(0, width)}" height="${rowH}" fill="${fills[i]?.fill}" stroke="#333"/>`,
      );
      if (width > 26)
        parts.push(
          `<text x="${x(at) + width / 2}" y="${top + rowH / 2 + 4}" text-anchor="middle" font-weight="bold" paint-order="stroke" stroke="#fff" stroke-width="3">${Math.round(ms)}</text>`,
        );
      at += ms;
    });
    const first = Math.round(b.phases[2] ?? 0);
    parts.push(`<text x="${x(at) + 4}" y="${top + rowH / 2 + 4}">${Math.round(at)} ms (first request ${first})</text>`);
  });
  fills.forEach((f, i) => {
    const lx = left + i * 98 - 90;
    parts.push(`<rect x="${lx}" y="${PAD.top - 6}" width="14" height="12" fill="${f.fill}" stroke="#333"/>`);
    parts.push(`<text x="${lx + 18}" y="${PAD.top + 4}">${f.name}</text>`);
  });
  return parts.join('\n');
}

/** A round axis maximum at or above `value`, close enough that the data fills most of the axis. */
function nice(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((m) => m * power >= value) ?? 10) * power;
}

function label(value: number): string {
  if (value >= 1000) return `${Number((value / 1000).toFixed(1))}k`;
  return String(Number(value.toPrecision(3)));
}
