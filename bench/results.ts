// The shape of bench/results.json, and the targets checked against it.

import type { measureColdStarts } from './cold-start.ts';
import type { CostPerMillion } from './cost.ts';
import type { ReadCostPoint } from './read-cost.ts';
import type { Histogram } from './stats.ts';
import type { WarmSummary } from './warm.ts';

export type WarmResult = Omit<WarmSummary, 'latenciesUs'> & { histogram: Histogram };

export interface BenchResults {
  generatedAt: string;
  machine: { node: string; cpus: number; cpuModel: string };
  quick: boolean;
  bundle: { bytes: number; gzipBytes: number; sourceMapBytes: number; trivialBytes: number; bareBytes: number };
  coldStart: Awaited<ReturnType<typeof measureColdStarts>>;
  warm: { p50Ratio: number; handler: WarmResult; bare: WarmResult };
  readCost: ReadCostPoint[];
  peakRssBytes: { coldStart: number; afterWarm: number; warmInvocations: number };
  costPerMillion: CostPerMillion;
  targets: Target[];
  wallSeconds: number;
}

export interface Target {
  name: string;
  goal: string;
  value: string;
  met: boolean;
}

export function checkTargets(results: Omit<BenchResults, 'targets' | 'wallSeconds'>): Target[] {
  const first = results.readCost[0];
  const last = results.readCost.at(-1);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} KB`;
  return [
    {
      name: 'cold-start ratio',
      goal: '≤ 1.5× trivial',
      value: `${results.coldStart.ratio}×`,
      met: results.coldStart.ratio <= 1.5,
    },
    {
      name: 'warm p50 ratio',
      goal: '≤ 1.10× bare Query',
      value: `${results.warm.p50Ratio}×`,
      met: results.warm.p50Ratio <= 1.1,
    },
    {
      name: 'read cost flat',
      goal: `RCU at ${last?.otherUsersPlants ?? 0} = RCU at 0`,
      value: `${first?.queryCapacityUnits} → ${last?.queryCapacityUnits}`,
      met: first !== undefined && first.queryCapacityUnits === last?.queryCapacityUnits,
    },
    {
      name: 'bundle size',
      goal: '≤ 350 KB minified, SDK included',
      value: kb(results.bundle.bytes),
      met: results.bundle.bytes <= 350_000,
    },
  ];
}
