// scale.svg: the company-wide group's partition read units a second against the request rate, before
// and with the chosen default page, at both concurrency quotas; each limit drawn as a line.
// Hand-written SVG as chart.ts's: series differ by dash and label as well as colour.

import type { ScaleResults } from '../scale/scale-scenarios.ts';

const W = 640;
const H = 320;
const PAD = { left: 64, right: 20, top: 40, bottom: 46 };
/** The sweep's highest rate (scale-scenarios.ts): the end of the rate axis. */
const RATE_MAX = 1e5;
const STYLES = [
  { color: '#b71c1c', dash: '' },
  { color: '#e65100', dash: '2 3' },
  { color: '#1b5e20', dash: '8 4' },
  { color: '#0d47a1', dash: '12 3 2 3' },
];

interface Line {
  label: string;
  points: [number, number][];
}

export function renderScaleChart(r: ScaleResults): string {
  const lines = r.sweep.map((s) => ({
    label: `${s.design.split(':')[0]}, quota ${s.quota.toLocaleString('en-US')}`,
    points: s.points.map((p) => [p.rate, p.hotRru]),
  }));
  const throttles: [number, string][] = [
    [r.limits.stageRate, 'stage throttle'],
    [r.limits.accountApiRate, 'account throttle'],
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    '<title>Plant store scale model: the company-wide group partition read units against request rate</title>',
    '<rect width="100%" height="100%" fill="#fff"/>',
    panel(
      'Company-wide group partition, first pages, group cache 5 s',
      'read units / s',
      lines as Line[],
      [r.limits.partitionRru, '3,000 RRU/s per partition key'],
      throttles,
    ),
    '</svg>\n',
  ].join('\n');
}

function panel(
  title: string,
  yLabel: string,
  lines: Line[],
  limit: [number, string],
  throttles: [number, string][],
): string {
  // Whole decades, whatever the lines cover, so both panels share their rate axis.
  const xs = lines.flatMap((l) => l.points.map(([x]) => x));
  const [xMin, xMax] = [10 ** Math.floor(Math.log10(Math.min(...xs))), 10 ** Math.ceil(Math.log10(RATE_MAX))];
  const yMin = 0.1;
  const yMax =
    10 ** Math.ceil(Math.log10(Math.max(limit[0] * 10, ...lines.flatMap((l) => l.points.map(([, y]) => y)))));
  const x = (v: number) => PAD.left + (Math.log10(v / xMin) / Math.log10(xMax / xMin)) * (W - PAD.left - PAD.right);
  const y = (v: number) =>
    H - PAD.bottom - (Math.log10(Math.max(v, yMin) / yMin) / Math.log10(yMax / yMin)) * (H - PAD.top - PAD.bottom);
  const decades = (from: number, to: number) =>
    Array.from({ length: Math.round(Math.log10(to / from)) + 1 }, (_, i) => from * 10 ** i);
  const parts = [
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${title}</text>`,
    `<line x1="${x(xMin)}" y1="${y(yMin)}" x2="${x(xMax)}" y2="${y(yMin)}" stroke="#333"/>`,
    `<line x1="${x(xMin)}" y1="${y(yMin)}" x2="${x(xMin)}" y2="${y(yMax)}" stroke="#333"/>`,
    ...decades(xMin, xMax).map((v) => `<text x="${x(v)}" y="${y(yMin) + 14}" text-anchor="middle">${short(v)}</text>`),
    ...decades(yMin, yMax).map((v) => `<text x="${x(xMin) - 4}" y="${y(v) + 4}" text-anchor="end">${short(v)}</text>`),
    `<text x="${(x(xMin) + x(xMax)) / 2}" y="${H - 10}" text-anchor="middle">requests / s (log)</text>`,
    `<text transform="translate(14,${(y(yMin) + y(yMax)) / 2}) rotate(-90)" text-anchor="middle">${yLabel} (log)</text>`,
    `<line x1="${x(xMin)}" y1="${y(limit[0])}" x2="${x(xMax)}" y2="${y(limit[0])}" stroke="#000" stroke-width="1.5"/>`,
    `<text x="${x(xMin) + 4}" y="${y(limit[0]) - 5}" font-weight="bold">${limit[1]}</text>`,
  ];
  for (const [rate, name] of throttles) {
    parts.push(
      `<line x1="${x(rate)}" y1="${y(yMin)}" x2="${x(rate)}" y2="${y(yMax)}" stroke="#757575" stroke-dasharray="1 3"/>`,
      `<text x="${x(rate) + 3}" y="${y(yMax) + 10}" fill="#555">${name}</text>`,
    );
  }
  lines.forEach((line, i) => {
    const style = STYLES[i % STYLES.length] ?? { color: '#000', dash: '' };
    const stroke = `stroke="${style.color}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}`;
    const path = line.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" ${stroke}/>`);
    // Legend in the lower right, clear of the lines (which rise to the right) and the limit's label.
    const ly = y(yMin) - 12 - (lines.length - 1 - i) * 15;
    const lx = x(xMax) - 190;
    parts.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 24}" y2="${ly}" ${stroke}/>`);
    parts.push(`<text x="${lx + 30}" y="${ly + 4}">${line.label}</text>`);
  });
  return parts.join('\n');
}

function short(value: number): string {
  if (value >= 1e6) return `${Number((value / 1e6).toFixed(1))}M`;
  if (value >= 1000) return `${Number((value / 1000).toFixed(1))}k`;
  return String(Number(value.toPrecision(3)));
}
