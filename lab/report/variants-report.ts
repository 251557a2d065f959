// bench:variants' figures: each variant's medians, its paired difference from production (the
// run of each round against production's run of the same round, so drift cancels), and the tables.

import type { Bundle } from '../harness/bundles.ts';
import { median, round } from '../harness/stats.ts';
import type { WarmVariant } from '../measure/variants-warm.ts';

/** One cold start: process start → module loaded → first response; CPU of every thread. */
export interface ColdSample {
  ready: number;
  imported: number;
  first: number;
  cpu: number;
  initCpu: number;
}
export type Where = 'loopback' | 'network';
export type ColdSamples = Record<Where, ColdSample[]>;

const medians = (s: ColdSample[]) => ({
  coldStartMedianMs: round(median(s.map((x) => x.ready)), 1),
  importMedianMs: round(median(s.map((x) => x.imported)), 1),
  firstRequestMedianMs: round(median(s.map((x) => x.first)), 1),
  /** CPU time of the process (all threads) until the first response, and until init ended. */
  cpuMedianMs: round(median(s.map((x) => x.cpu)), 1),
  initCpuMedianMs: round(median(s.map((x) => x.initCpu)), 1),
});

/** Median over rounds of (this variant − production), for cold start and CPU; and of their cold-start ratio. */
const pairedDelta = (s: ColdSample[], production: ColdSample[]) => {
  const delta = (key: 'ready' | 'cpu') => s.map((x, i) => x[key] - (production[i]?.[key] ?? Number.NaN));
  const ratio = s.map((x, i) => x.ready / (production[i]?.ready ?? Number.NaN));
  return {
    coldStartMs: round(median(delta('ready')), 1),
    cpuMs: round(median(delta('cpu')), 1),
    coldStartRatio: round(median(ratio), 3),
  };
};

export function summarizeCold(
  bundles: [string, Bundle][],
  samples: Map<string, ColdSamples>,
  extra: (name: string) => object = () => ({}),
) {
  const production = samples.get('production') ?? { loopback: [], network: [] };
  return bundles.map(([name, bundle]) => {
    const s = samples.get(name) ?? { loopback: [], network: [] };
    return {
      name,
      bytes: bundle.bytes,
      coldStartBytes: bundle.coldStartBytes,
      ...extra(name),
      loopback: medians(s.loopback),
      network: medians(s.network),
      vsProduction: {
        loopback: pairedDelta(s.loopback, production.loopback),
        network: pairedDelta(s.network, production.network),
      },
    };
  });
}

type ColdSummary = ReturnType<typeof summarizeCold>[number] & { compileCacheBytes?: number };

const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} KB`;
const signed = (ms: number) => `${ms > 0 ? '+' : ''}${ms} ms`;

export function printCold(cold: ColdSummary[], runs: number, rttMs: number): void {
  console.log(
    `| variant (median of ${runs}) | bundle (read at cold start) | cold start, loopback | import / first request | CPU | cold start, ${rttMs} ms RTT | import / first request | CPU |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const v of cold) {
    const { loopback: l, network: n } = v;
    const cache = v.compileCacheBytes === undefined ? '' : ` + ${kb(v.compileCacheBytes)} cache`;
    console.log(
      `| ${v.name} | ${kb(v.bytes)} (${kb(v.coldStartBytes)})${cache} | ${l.coldStartMedianMs} ms | ${l.importMedianMs} / ${l.firstRequestMedianMs} ms | ${l.cpuMedianMs} ms | ${n.coldStartMedianMs} ms | ${n.importMedianMs} / ${n.firstRequestMedianMs} ms | ${n.cpuMedianMs} ms |`,
    );
  }
  console.log(
    `\n| against production, median of ${runs} paired rounds | cold start, loopback | CPU | cold start, ${rttMs} ms RTT | CPU |`,
  );
  console.log('|---|---|---|---|---|');
  for (const {
    name,
    vsProduction: { loopback: l, network: n },
  } of cold.filter((v) => v.name !== 'production')) {
    console.log(
      `| ${name} | ${signed(l.coldStartMs)} | ${signed(l.cpuMs)} | ${signed(n.coldStartMs)} | ${signed(n.cpuMs)} |`,
    );
  }
}

/**
 * The variants that change the request path, against issue 41's goals for production (the SDK's
 * document client) beside each: start → first response at the modelled RTT at most 1.10× the
 * variant's (median of the paired rounds' ratios), warm p99 at most 1.10× in the same processes.
 * Behaviour is the other half: test/handlers/lib/plants-page.test.ts, lab/test/dynamodb-clients.test.ts.
 */
export function printWarm(cold: ColdSummary[], warm: WarmVariant[], rttMs: number): void {
  if (warm.length === 0) return;
  const p99Ratio = (w: WarmVariant) => w.p99Ms / w.production.p99Ms;
  console.log(
    `\n| against production (warm: ${warm[0]?.invocations} invocations each, alternating in the same processes) | start → first response, ${rttMs} ms RTT, paired ratio | warm p50 | warm p99 (ratio) | CPU per request | production ≤ 1.1× its start → first response, p99 |`,
  );
  console.log('|---|---|---|---|---|---|');
  const ms = (variant: number, production: number) => `${variant} vs ${production} ms`;
  for (const w of warm) {
    const ratio = cold.find((v) => v.name === w.name)?.vsProduction.network.coldStartRatio ?? Number.NaN;
    const verdict = `${1 / ratio <= 1.1 ? 'yes' : 'no'}, ${1 / p99Ratio(w) <= 1.1 ? 'yes' : 'no'}`;
    console.log(
      `| ${w.name} | ${ratio}× | ${ms(w.p50Ms, w.production.p50Ms)} | ${ms(w.p99Ms, w.production.p99Ms)} (${round(p99Ratio(w), 2)}×) | ${ms(w.cpuMsPerRequest, w.production.cpuMsPerRequest)} | ${verdict} |`,
    );
  }
}
