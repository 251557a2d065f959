// The populations bench:scale states, the limits it checks them against, and what it writes under
// results.json's `scale` key: each population with the group cache off and at several times to
// live, the rate at which each limit is crossed, the operating point at a few rates, and a sweep.

import { readSettings } from '../infra/settings.ts';
import { PAGE_SHAPE, type ScaleMeasurements } from './scale-measure.ts';
import {
  AWS_LIMITS,
  type Crossings,
  callersToReach,
  crossings,
  groupShares,
  type Limits,
  type Measured,
  type Operating,
  operate,
  type Population,
} from './scale-model.ts';
import { round } from './stats.ts';

export const POPULATIONS: { name: string; population: Population }[] = [
  {
    name: '100,000 users, 1,000 groups (Zipf 1), 2 groups each',
    population: { users: 100_000, groups: 1_000, zipf: 1, groupsPerUser: PAGE_SHAPE.groupsPerUser },
  },
  {
    name: 'the same, one group every user is in (a company-wide group)',
    population: { users: 100_000, groups: 1_000, zipf: 1, groupsPerUser: PAGE_SHAPE.groupsPerUser, hottestShare: 1 },
  },
];
/** Times to live modelled; 0 is the cache off (GROUP_CACHE_TTL_SECONDS=0). */
export const TTLS = [0, 1, 5, 30];
/** Request rates at which the operating point is shown. */
export const RATES = [50, 1_000, 10_000, 50_000];
/** Assumed, not measured here: an in-Region DynamoDB round trip (loopback hides it). */
export const ASSUMED = { dynamoRoundTripMs: 5 } as const;

/** The edge's default per-token limit as a steady rate (-c edge=true, infra/edge-settings.ts). */
function edgePerCallerRate(): number {
  const edge = readSettings((key) => (key === 'edge' ? 'true' : undefined), ['edge']).edge;
  if (!edge) throw new Error('the edge settings gave no limits');
  return edge.tokenLimit / edge.windowSeconds;
}

export interface ScaleScenario {
  population: string;
  hottestShare: number;
  ttlSeconds: number;
  crossings: Crossings;
  at: Operating[];
  /** Callers it takes to use up the default stage throttle on their own: 1 without the edge. */
  callersForStageThrottle: { withoutEdge: number; withEdge: number };
  /** Callers in one group it takes to cross its partition's limit on their own (the throttles apart). */
  callersForHotPartition: { withoutEdge: number; withEdge: number };
}

export interface ScaleResults {
  pageShape: typeof PAGE_SHAPE;
  measured: ScaleMeasurements;
  limits: Limits;
  assumed: typeof ASSUMED & { edgePerCallerRate: number };
  scenarios: ScaleScenario[];
  /** Hottest partition's read units a second and the concurrency against the rate, first population. */
  sweep: { ttlSeconds: number; points: { rate: number; hotRru: number; concurrency: number }[] }[];
}

export function modelScale(measured: ScaleMeasurements): ScaleResults {
  const perToken = edgePerCallerRate();
  const limits: Limits = {
    ...AWS_LIMITS,
    // The default bill ceiling's stage throttle (-c maxRequestsPerSecond, infra/ceiling.ts).
    stageRate: readSettings(() => undefined).ceiling.throttle.rateLimit,
    dynamoRoundTripMs: ASSUMED.dynamoRoundTripMs,
  };
  const m: Measured = {
    ownRru: measured.ownRru,
    groupRru: measured.groupRru,
    warmMsOff: measured.off.meanMs,
    warmMsHit: measured.on.meanMs,
  };
  const scenarios = POPULATIONS.flatMap(({ name, population }) => {
    const shares = groupShares(population);
    return TTLS.map((ttl): ScaleScenario => {
      // Requests that all read one group (a caller in it): the rate that crosses its partition.
      const soloRate = crossings([1], m, limits, ttl).hotPartition;
      return {
        population: name,
        hottestShare: round(shares[0] ?? 0, 4),
        ttlSeconds: ttl,
        crossings: crossings(shares, m, limits, ttl),
        at: RATES.map((rate) => rounded(operate(rate, shares, m, limits, ttl))),
        callersForStageThrottle: {
          withoutEdge: callersToReach(limits.stageRate, undefined),
          withEdge: callersToReach(limits.stageRate, perToken),
        },
        callersForHotPartition: {
          withoutEdge: callersToReach(soloRate, undefined),
          withEdge: callersToReach(soloRate, perToken),
        },
      };
    });
  });
  const first = groupShares(POPULATIONS[0]?.population ?? { users: 0, groups: 0, zipf: 1, groupsPerUser: 0 });
  const grid = Array.from({ length: 49 }, (_, i) => 10 * 10 ** (i / 8));
  const sweep = TTLS.map((ttl) => ({
    ttlSeconds: ttl,
    points: grid.map((rate) => {
      const o = operate(rate, first, m, limits, ttl);
      return { rate: round(rate, 1), hotRru: round(o.hotRru, 3), concurrency: round(o.concurrency, 3) };
    }),
  }));
  return {
    pageShape: PAGE_SHAPE,
    measured,
    limits,
    assumed: { ...ASSUMED, edgePerCallerRate: perToken },
    scenarios,
    sweep,
  };
}

const rounded = (o: Operating): Operating => ({
  rate: o.rate,
  hotRru: round(o.hotRru, 1),
  rank10Rru: round(o.rank10Rru, 1),
  rank100Rru: round(o.rank100Rru, 1),
  hotHitRatio: round(o.hotHitRatio, 4),
  groupHitRatio: round(o.groupHitRatio, 4),
  concurrency: round(o.concurrency, 1),
  rruPerRequest: round(o.rruPerRequest, 3),
  durationMs: round(o.durationMs, 2),
});
