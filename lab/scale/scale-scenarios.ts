// What bench:scale writes under results.json's `scale` key: the measured read units per group read,
// and for each design (page size, group cache) the rate at which every limit is crossed, for a
// company-wide group (every request reads it) of each size, at Lambda's default concurrency quota
// and after raising it to 10,000, for first pages; and the chosen design at each item size the data
// CLI writes, for first pages, walks (members owning equal or different numbers of plants) and minted
// cursors, each key's read units computed from the items it reads.

// The stack's own reader, without CDK: the default ceiling.
import { MAX_PLANT_ITEM_BYTES } from '../../handlers/lib/plant-item.ts';
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
import {
  groupItems,
  type ItemSize,
  itemReadBytes,
  queryReadUnits,
  readUnitsAt,
  walkKeyReads,
} from './scale-read-units.ts';

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
export type RequestKind = 'first page';

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

/** How requests read the hottest group, for the chosen design across item sizes. */
export const ITEM_REQUESTS = ['first page', 'walk, equal members', 'walk, mixed members', 'minted cursors'] as const;
export type ItemRequest = (typeof ITEM_REQUESTS)[number];
/** The item sizes compared: the bench's plants, and the largest the data CLI writes (infra/ceiling.ts). */
export const ITEM_SIZES: ItemSize[] = ['bench', MAX_PLANT_ITEM_BYTES];
/** DynamoDB's largest item: the top of the search for the largest item size a claim holds to. */
const MAX_ITEM_BYTES = 409_600;

export interface ItemScenario {
  request: ItemRequest;
  quota: number;
  groupPlants: number;
  /** Bytes of each item as DynamoDB sizes it for reads ('bench': the bench's plants). */
  itemBytes: ItemSize;
  /** Cache keys read in the group's partition; null: a new one each request. */
  keys: number | null;
  /** Read units of a read of the partition, over its keys (weighted by their requests). */
  meanReadRru: number;
  /** The hot partition's crossing (req/s), null: never. */
  hotPartition: number | null;
  first: string[];
  firstRate: number;
}

export interface ScaleResults {
  measured: ScaleMeasurements;
  groupReads: GroupReadMeasurements;
  limits: Limits;
  assumed: typeof ASSUMED;
  /** Callers it takes to use up the stage throttle as deployed: one, since nothing limits a caller. */
  callersForStageThrottle: number;
  scenarios: ScaleScenario[];
  /** Bytes of the bench's plants as DynamoDB sizes them, on average. */
  benchItemBytes: number;
  /** The chosen design at each item size, for first pages, walks and minted cursors. */
  items: ItemScenario[];
  /**
   * The largest item (bytes, uniform) for which the hot partition stays uncrossed below the account's
   * API rate, by request kind, quota and group; null: whatever the size, up to DynamoDB's 400 KB.
   */
  holdsUpTo: { request: ItemRequest; quota: number; groupPlants: number; itemBytes: number | null }[];
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
  const workload = (design: (typeof DESIGNS)[number], groupPlants: number, _request: RequestKind): Workload => {
    const read = groupReads.reads.find(
      (r) => r.groupPlants === groupPlants && r.pageSize === design.pageSize && r.cached === design.wholePage,
    );
    if (!read) throw new Error(`no group read measured for ${groupPlants} plants at page ${design.pageSize}`);
    return {
      hotShare: 1,
      hotReadRru: read.measuredRru,
      keys: 1,
      otherRru: measured.ownRru,
      durationMs: round(durationMs, 3),
    };
  };
  const scenarios = DESIGNS.flatMap((design) =>
    QUOTAS.flatMap((quota) =>
      sizes.flatMap((groupPlants) =>
        (['first page'] as const).map((request): ScaleScenario => {
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
  const chosen = DESIGNS.find((d) => d.name === CHOSEN) ?? DESIGNS[5];
  const limit = chosen.pageSize;
  const ownPlants = groupReads.ownPlants;
  const itemWorkload = (request: ItemRequest, groupPlants: number, size: ItemSize): Workload => {
    const whole = Math.min(limit + 1, groupPlants);
    const own = size === 'bench' ? measured.ownRru : queryReadUnits(ownPlants * size);
    const base = { hotShare: 1, otherRru: own, durationMs: round(durationMs, 3) };
    if (request === 'first page') return { ...base, hotReadRru: readUnitsAt(0, whole, size), keys: 1 };
    if (request === 'minted cursors') {
      return { ...base, hotReadRru: readUnitsAt(0, whole, size), keys: Number.POSITIVE_INFINITY };
    }
    // Members owning 0 to limit − 1 plants (any count, modulo the page) read the group at different offsets.
    const owns = request === 'walk, equal members' ? [ownPlants] : Array.from({ length: limit }, (_, own) => own);
    const keyReads = walkKeyReads(groupPlants, limit, owns, size);
    const hot = keyReads.reduce((sum, k) => sum + k.share, 0);
    return {
      ...base,
      hotShare: 1,
      hotReadRru: keyReads.reduce((sum, k) => sum + k.share * k.rru, 0) / hot,
      keys: keyReads.length,
      keyReads,
    };
  };
  const design = (quota: number): Design => ({ ttlSeconds: chosen.ttlSeconds, warmContainers: quota });
  const items = ITEM_REQUESTS.flatMap((request) =>
    QUOTAS.flatMap((quota) =>
      sizes.flatMap((groupPlants) =>
        ITEM_SIZES.map((itemBytes): ItemScenario => {
          const w = itemWorkload(request, groupPlants, itemBytes);
          const c = roundCrossings(crossings(w, design(quota), limits));
          return {
            request,
            quota,
            groupPlants,
            itemBytes,
            keys: Number.isFinite(w.keys) ? w.keys : null,
            meanReadRru: round(w.hotReadRru, 2),
            hotPartition: c.rates.hotPartition,
            first: c.first,
            firstRate: c.rates[c.first[0] ?? 'accountApiRate'] ?? limits.accountApiRate,
          };
        }),
      ),
    ),
  );
  const holds = (request: ItemRequest, quota: number, groupPlants: number, bytes: number) => {
    const rate = crossings(itemWorkload(request, groupPlants, bytes), design(quota), limits).rates.hotPartition;
    return rate === null || rate >= limits.accountApiRate;
  };
  const holdsUpTo = ITEM_REQUESTS.flatMap((request) =>
    QUOTAS.flatMap((quota) =>
      sizes.map((groupPlants) => {
        const ok = (bytes: number) => holds(request, quota, groupPlants, bytes);
        if (ok(MAX_ITEM_BYTES)) return { request, quota, groupPlants, itemBytes: null };
        let [low, high] = [0, MAX_ITEM_BYTES];
        while (high - low > 1) {
          const mid = Math.floor((low + high) / 2);
          if (ok(mid)) low = mid;
          else high = mid;
        }
        return { request, quota, groupPlants, itemBytes: low };
      }),
    ),
  );
  const bench = groupItems(limit + 1);
  return {
    measured,
    groupReads,
    limits,
    assumed: ASSUMED,
    callersForStageThrottle: callersToReach(limits.stageRate, undefined),
    scenarios,
    benchItemBytes: Math.round(bench.reduce((sum, item) => sum + itemReadBytes(item), 0) / bench.length),
    items,
    holdsUpTo,
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
