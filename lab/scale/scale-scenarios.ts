// What bench:scale writes under results.json's `scale` key: the measured read units per group read,
// and for each design (page size, group cache) the rate at which every limit is crossed, for a
// company-wide group (every request reads it) of each size, at Lambda's default concurrency quota
// and after raising it to 10,000, requests being first pages or walks of every page.

// The stack's own reader, without CDK: the default ceiling.
import { readCeiling } from '../../infra/ceiling.ts';
import { round } from '../harness/stats.ts';
import type { GroupReadMeasurements } from './scale-group-reads.ts';
import type { ScaleMeasurements } from './scale-measure.ts';
import {
  AWS_LIMITS,
  type Crossings,
  callersToReach,
  crossings,
  type Design,
  hotPartitionRru,
  type Limits,
  type Workload,
} from './scale-model.ts';
import { walkKeys } from './scale-read-units.ts';

/** Assumed, not measured here: an in-Region DynamoDB round trip (loopback hides it). */
export const ASSUMED = { dynamoRoundTripMs: 5 } as const;
/** Lambda concurrency quotas modelled: the default, and after a raise to 10,000. */
export const QUOTAS = [AWS_LIMITS.lambdaConcurrency, 10_000];

/**
 * The designs compared. `wholePage`: a read asks for a whole page (plants.ts through the cache), else
 * for what the caller's page still needs. Before, misses were sized that way too, and members with
 * different numbers of own plants missed on each other's entries: modelled here as one key, its best case.
 */
export const DESIGNS = [
  { name: 'before: page 1,000, 5 s cache, misses sized to the page', pageSize: 1000, ttlSeconds: 5, wholePage: false },
  { name: 'page 1,000, cache off', pageSize: 1000, ttlSeconds: 0, wholePage: false },
  { name: 'page 1,000, 5 s cache', pageSize: 1000, ttlSeconds: 5, wholePage: true },
  { name: 'page 1,000, 60 s cache', pageSize: 1000, ttlSeconds: 60, wholePage: true },
  { name: 'page 100, cache off', pageSize: 100, ttlSeconds: 0, wholePage: false },
  { name: 'chosen: page 100, 5 s cache', pageSize: 100, ttlSeconds: 5, wholePage: true },
  { name: 'page 50, 5 s cache', pageSize: 50, ttlSeconds: 5, wholePage: true },
] as const;
export const BEFORE = DESIGNS[0].name;
export const CHOSEN = DESIGNS[5].name;
export type RequestKind = 'first page' | 'every page';

export interface ScaleScenario {
  design: string;
  pageSize: number;
  ttlSeconds: number;
  quota: number;
  groupPlants: number;
  request: RequestKind;
  workload: Workload;
  crossings: Crossings;
}

export interface ScaleResults {
  measured: ScaleMeasurements;
  groupReads: GroupReadMeasurements;
  limits: Limits;
  assumed: typeof ASSUMED;
  /** Callers it takes to use up the stage throttle as deployed: one, since nothing limits a caller. */
  callersForStageThrottle: number;
  scenarios: ScaleScenario[];
  /** The hottest partition's read units a second against the rate: before and chosen, each quota, largest group. */
  sweep: { design: string; quota: number; points: { rate: number; hotRru: number }[] }[];
}

export function modelScale(measured: ScaleMeasurements, groupReads: GroupReadMeasurements): ScaleResults {
  const limits: Limits = {
    ...AWS_LIMITS,
    // The default bill ceiling's stage throttle (-c maxRequestsPerSecond, infra/ceiling.ts).
    stageRate: readCeiling(() => undefined).throttle.rateLimit,
  };
  const durationMs = measured.off.meanMs + 2 * ASSUMED.dynamoRoundTripMs;
  const sizes = [...new Set(groupReads.reads.map((r) => r.groupPlants))];
  const workload = (design: (typeof DESIGNS)[number], groupPlants: number, request: RequestKind): Workload => {
    const read = groupReads.reads.find(
      (r) => r.groupPlants === groupPlants && r.pageSize === design.pageSize && r.cached === design.wholePage,
    );
    if (!read) throw new Error(`no group read measured for ${groupPlants} plants at page ${design.pageSize}`);
    return {
      hotShare: 1,
      hotReadRru: read.measuredRru,
      keys: request === 'first page' ? 1 : walkKeys(groupPlants, design.pageSize, groupReads.ownPlants),
      otherRru: measured.ownRru,
      durationMs: round(durationMs, 3),
    };
  };
  const scenarios = DESIGNS.flatMap((design) =>
    QUOTAS.flatMap((quota) =>
      sizes.flatMap((groupPlants) =>
        (['first page', 'every page'] as const).map((request): ScaleScenario => {
          const w = workload(design, groupPlants, request);
          const c = crossings(w, { ttlSeconds: design.ttlSeconds, warmContainers: quota }, limits);
          return {
            design: design.name,
            pageSize: design.pageSize,
            ttlSeconds: design.ttlSeconds,
            quota,
            groupPlants,
            request,
            workload: w,
            crossings: roundCrossings(c),
          };
        }),
      ),
    ),
  );
  const largest = Math.max(...sizes);
  const grid = Array.from({ length: 49 }, (_, i) => 10 * 10 ** (i / 12));
  const sweep = [BEFORE, CHOSEN].flatMap((name) =>
    QUOTAS.map((quota) => {
      const design = DESIGNS.find((d) => d.name === name) ?? DESIGNS[0];
      const d: Design = { ttlSeconds: design.ttlSeconds, warmContainers: quota };
      const w = workload(design, largest, 'first page');
      return {
        design: name,
        quota,
        points: grid.map((rate) => ({ rate: round(rate, 1), hotRru: round(hotPartitionRru(rate, w, d), 2) })),
      };
    }),
  );
  return {
    measured,
    groupReads,
    limits,
    assumed: ASSUMED,
    callersForStageThrottle: callersToReach(limits.stageRate, undefined),
    scenarios,
    sweep,
  };
}

const roundCrossings = (c: Crossings): Crossings => ({
  ...c,
  rates: Object.fromEntries(
    Object.entries(c.rates).map(([k, v]) => [k, v === null ? null : Math.round(v)]),
  ) as Crossings['rates'],
  hotRruAtFirst: round(c.hotRruAtFirst, 1),
  cacheBoundRru: c.cacheBoundRru === null ? null : round(c.cacheBoundRru, 1),
});
