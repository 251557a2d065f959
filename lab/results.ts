// The shape of lab/results.json, and the targets checked against it.

import { MAX_QUERIES_PER_PAGE } from '../handlers/lib/plants.ts';
import type { billOf } from './cost/bill-of.ts';
import type { Histogram } from './harness/stats.ts';
import type { BilledDuration } from './measure/billed-duration.ts';
import type { measureColdStarts, NetworkSummary } from './measure/cold-start.ts';
import type { GroupReadCostPoint } from './measure/group-read-cost.ts';
import type { ReadCostPoint } from './measure/read-cost.ts';
import type { measureWarm, WarmSummary } from './measure/warm.ts';
import type { ScaleResults } from './scale/scale-scenarios.ts';

export type WarmResult = Omit<WarmSummary, 'latenciesUs'> & { histogram: Histogram };

export interface BenchResults {
  generatedAt: string;
  machine: { node: string; cpus: number; cpuModel: string };
  quick: boolean;
  bundle: {
    bytes: number;
    /** What a cold start with tracing off reads: the entry and the chunks it imports statically. */
    coldStartBytes: number;
    gzipBytes: number;
    sourceMapBytes: number;
    trivialBytes: number;
    bareBytes: number;
  };
  coldStart: Awaited<ReturnType<typeof measureColdStarts>>;
  /** Present when run with `--rtt <ms>`. */
  network?: NetworkSummary;
  warm: Pick<Awaited<ReturnType<typeof measureWarm>>, 'p50Ratio' | 'p99Ratio' | 'tracingOn'> & {
    handler: WarmResult;
    bare: WarmResult;
  };
  readCost: ReadCostPoint[];
  /** One page's read cost for a caller in few and in many groups. */
  groupReadCost: GroupReadCostPoint[];
  /** Mean billed duration of a warm invocation: over the modelled network with `--rtt`, else loopback. */
  billedDuration: BilledDuration;
  peakRssBytes: { coldStart: number; afterWarm: number; warmInvocations: number };
  cost: ReturnType<typeof billOf>;
  targets: Target[];
  wallSeconds: number;
  /** Written by `npm run bench:scale -w lab`, kept by `npm run bench -w lab`. */
  scale?: ScaleResults & { generatedAt: string; bundleBytes: number };
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
  const { coldStart, warm, network } = results;
  const targets: Target[] = [
    {
      name: 'bundle size',
      goal: '≤ 350 KB minified, SDK included, every chunk',
      value: `${kb(results.bundle.bytes)} (${kb(results.bundle.coldStartBytes)} read at a cold start)`,
      met: results.bundle.bytes <= 350_000,
    },
    {
      name: 'cold-start ratio',
      goal: '≤ 3.5× trivial, loopback',
      value: `${coldStart.ratio}×`,
      met: coldStart.ratio <= 3.5,
    },
    {
      name: 'warm p50 ratio',
      goal: '≤ 1.05× bare Query',
      value: `${warm.p50Ratio}× (tracing on: p50 ${warm.tracingOn.handler.p50Ms} ms vs ${warm.handler.p50Ms} ms off)`,
      met: warm.p50Ratio <= 1.05,
    },
    {
      name: 'warm p99 ratio',
      goal: "≤ 1.10× bare Query's p99",
      value: `${warm.p99Ratio}× (tracing on: p99 ${warm.tracingOn.handler.p99Ms} ms vs ${warm.handler.p99Ms} ms off)`,
      met: warm.p99Ratio <= 1.1,
    },
    {
      name: 'read cost flat',
      goal: `RCU at ${last?.otherUsersPlants ?? 0} = RCU at 0`,
      value: `${first?.queryCapacityUnits} → ${last?.queryCapacityUnits}`,
      met: first !== undefined && first.queryCapacityUnits === last?.queryCapacityUnits,
    },
  ];
  // A page reads the caller's partition, then group after group until it is full, and never makes
  // more than MAX_QUERIES_PER_PAGE calls: so its cost is bounded by the page whatever the groups.
  const groupCounts = results.groupReadCost.map((p) => p.groups);
  const few = results.groupReadCost.filter((p) => p.groups === Math.min(...groupCounts));
  const many = results.groupReadCost.filter((p) => p.groups === Math.max(...groupCounts));
  const smallest = Math.min(...results.groupReadCost.map((p) => p.limit));
  const rcu = (points: GroupReadCostPoint[], limit: number) => points.find((p) => p.limit === limit)?.capacityUnits;
  targets.push({
    name: 'group read cost follows the page',
    goal: `≤ ${MAX_QUERIES_PER_PAGE} Query per page; limit ${smallest}: ${many[0]?.groups} groups cost what 1 group costs`,
    value: results.groupReadCost.map((p) => `${p.groups} groups, limit ${p.limit}: ${p.capacityUnits} RCU`).join('; '),
    met:
      results.groupReadCost.every((p) => p.queryCalls <= MAX_QUERIES_PER_PAGE) &&
      rcu(many, smallest) !== undefined &&
      rcu(many, smallest) === rcu(few, smallest),
  });
  const { cost } = results;
  // Data transfer (the clients' page size) and Cognito (their number) are set by the users, not the stack.
  const stackOnly = cost.perMillionUsd.total - cost.perMillionUsd.dataTransferOut - cost.perMillionUsd.cognito;
  targets.push({
    name: 'all-in cost per million',
    goal: `≤ $1.50 at ${cost.assumptions.requestsPerSecond} requests/s, internet data transfer and Cognito apart`,
    value: `$${stackOnly.toFixed(4)} (+ $${cost.perMillionUsd.dataTransferOut.toFixed(4)} data transfer of ${cost.responseBytesPerRequest} B per response, + $${cost.perMillionUsd.cognito.toFixed(4)} Cognito at ${cost.assumptions.usersPerRequestPerSecond * cost.assumptions.requestsPerSecond} monthly active users)`,
    met: stackOnly <= 1.5,
  });
  if (network) {
    const added = network.handler.medianMs - network.loopbackHandlerMedianMs;
    targets.push(
      {
        name: 'network overlapped with init',
        goal: `cold start at ${network.rttMs} ms RTT ≤ loopback + 40 ms`,
        value: `+${added.toFixed(1)} ms (${network.handler.medianMs} vs ${network.loopbackHandlerMedianMs} ms)`,
        met: added <= 40,
      },
      {
        name: 'first request after init',
        goal: `≤ 30 ms median at ${network.rttMs} ms RTT`,
        value: `${network.handler.medianFirstRequestMs} ms`,
        met: network.handler.medianFirstRequestMs <= 30,
      },
    );
  }
  return targets;
}
