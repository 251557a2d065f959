// The scale model: for a workload (what each request reads of the hottest group's partition and
// elsewhere, and how long it runs) and a design (the group cache's time to live, the warm containers
// the concurrency quota allows), the request rate at which each documented limit is crossed.

/** AWS's documented defaults (lab/docs/scale.md names the pages). */
export const AWS_LIMITS = {
  /** Read units a second one partition key serves, however the table scales. */
  partitionRru: 3000,
  /** An on-demand table's default read throughput quota. */
  tableRru: 40_000,
  /** Concurrent executions per account and Region. */
  lambdaConcurrency: 1000,
  /** Lambda's requests-a-second limit is 10 × the concurrency quota. */
  lambdaRpsPerConcurrency: 10,
  /** API Gateway's account throttle (per Region), and its burst: targets, not guaranteed ceilings. */
  accountApiRate: 10_000,
  accountApiBurst: 5_000,
} as const;

export interface Limits {
  partitionRru: number;
  tableRru: number;
  lambdaConcurrency: number;
  lambdaRpsPerConcurrency: number;
  accountApiRate: number;
  accountApiBurst: number;
  /** The stage throttle as deployed (-c maxRequestsPerSecond). */
  stageRate: number;
}

export interface Workload {
  /** Share of requests that read the hottest group's partition (1: a company-wide group). */
  hotShare: number;
  /** Read units of one read of that partition: every read with the cache off, each miss with it on (the keys' mean). */
  hotReadRru: number;
  /** Cache keys the requests use in it: 1 when every request is a first page, one per page for walks. */
  keys: number;
  /**
   * Each key's share of the hot partition's requests and its own read units, when they differ (walks);
   * none: `keys` keys read alike. Infinity keys (`keys`): every request a key of its own (minted cursors).
   */
  keyReads?: { share: number; rru: number }[];
  /** Read units each request spends on other partitions (the caller's own). */
  otherRru: number;
  /** Mean duration of a request (ms): what Lambda concurrency is made of. */
  durationMs: number;
}

export interface Design {
  /** The group cache's time to live; 0: off. */
  ttlSeconds: number;
  /**
   * Containers that may hold an entry and miss: the concurrency quota, not the busy containers
   * (rate × duration, the cache's best case): warm idle containers miss too.
   */
  warmContainers: number;
}

/**
 * Read units a second on the hottest partition at `rate`. Each of W containers gets x / (k·W) reads
 * a second of each of k keys (x = rate × share) and misses λ / (1 + λT) of them (one read per time to
 * live while busy), so the partition sees x / (1 + xT / kW) reads: at most k·W / T, whatever the rate.
 */
export function hotPartitionRru(rate: number, w: Workload, d: Design): number {
  const x = rate * w.hotShare;
  if (d.ttlSeconds === 0 || !Number.isFinite(w.keys)) return x * w.hotReadRru;
  // Key j, read by a share s of the requests, misses s·x / (1 + s·x·T/W) times a second.
  const misses = (share: number) => (share * x) / (1 + (share * x * d.ttlSeconds) / d.warmContainers);
  if (!w.keyReads) return w.keys * w.hotReadRru * misses(1 / w.keys);
  return w.keyReads.reduce((sum, { share, rru }) => sum + rru * misses(share), 0);
}

/** The cache's bound on the hottest partition: warm containers ÷ time to live × read units × keys. */
export const cacheBoundRru = (w: Workload, d: Design): number =>
  d.ttlSeconds === 0 || !Number.isFinite(w.keys)
    ? Number.POSITIVE_INFINITY
    : (d.warmContainers / d.ttlSeconds) *
      (w.keyReads ?? [{ rru: w.hotReadRru * w.keys }]).reduce((a, k) => a + k.rru, 0);

export const LIMIT_NAMES = {
  hotPartition: 'hot partition',
  table: 'table read quota',
  lambdaConcurrency: 'Lambda concurrency',
  lambdaRps: 'Lambda requests/s',
  accountApiRate: 'API Gateway account rate',
} as const;
export type LimitName = keyof typeof LIMIT_NAMES;

export interface Crossings {
  /** Request rates (per second) at which each limit is crossed; null: never (JSON has no Infinity). */
  rates: Record<LimitName, number | null>;
  /** The stage throttle as deployed: the first limit of all while it stays at its default. */
  stageThrottle: number;
  /** API Gateway's burst: crossed by more than this many requests at once, whatever the steady rate. */
  burst: number;
  /** The first limit crossed with the stage throttle raised to the account's; several when tied. */
  first: LimitName[];
  /** The hottest partition's read units a second at the first crossing (its share of 3,000). */
  hotRruAtFirst: number;
  cacheBoundRru: number | null;
}

export function crossings(w: Workload, d: Design, l: Limits): Crossings {
  const hot = (rate: number) => hotPartitionRru(rate, w, d);
  const quota = d.warmContainers;
  const rates: Record<LimitName, number> = {
    hotPartition: solve((rate) => hot(rate) >= l.partitionRru),
    table: solve((rate) => rate * w.otherRru + hot(rate) >= l.tableRru),
    lambdaConcurrency: (quota * 1000) / w.durationMs,
    lambdaRps: quota * l.lambdaRpsPerConcurrency,
    accountApiRate: l.accountApiRate,
  };
  const lowest = Math.min(...Object.values(rates));
  // Ties (Lambda's requests a second and the account throttle, both 10,000 by default) are named together.
  const first = (Object.keys(rates) as LimitName[]).filter((name) => rates[name] <= lowest * 1.001);
  const bound = cacheBoundRru(w, d);
  return {
    rates: Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, finite(v)])) as Record<
      LimitName,
      number | null
    >,
    stageThrottle: l.stageRate,
    burst: l.accountApiBurst,
    first,
    hotRruAtFirst: hot(lowest),
    cacheBoundRru: finite(bound),
  };
}

const finite = (value: number) => (Number.isFinite(value) ? value : null);

/** The smallest rate (to 0.01%) at which `crossed` holds, by bisection on a monotone metric; Infinity below 10^9. */
function solve(crossed: (rate: number) => boolean): number {
  let high = 1e9;
  if (!crossed(high)) return Number.POSITIVE_INFINITY;
  let low = 0;
  while (high - low > high * 1e-4) {
    const mid = (low + high) / 2;
    if (crossed(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** Callers it takes, each held to `perCallerRate` by a per-caller limit, to use up `rate` on their own. */
export const callersToReach = (rate: number, perCallerRate: number | undefined): number =>
  perCallerRate === undefined ? 1 : Math.ceil(rate / perCallerRate);
