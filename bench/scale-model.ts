// The scale model: for a stated population and the bench's measured read units and latency, the
// reads each partition takes, the Lambda concurrency, and the request rate at which each limit is
// crossed (a partition's 3,000 read units a second, the account's 1,000 concurrent executions, the
// stage and account throttles), with the group cache off and at several times to live.

export interface Population {
  users: number;
  groups: number;
  /** Group popularity: the group of rank i has members in proportion to 1 / i^zipf. */
  zipf: number;
  groupsPerUser: number;
  /** The share of users in the most popular group, when given: overrides what Zipf gives it. */
  hottestShare?: number;
}

/** What the bench measured for one first page of this population's shape (capacity proxy, warm runs). */
export interface Measured {
  /** Read units of the caller's own partition, and of one group partition, per page. */
  ownRru: number;
  groupRru: number;
  /** Warm mean duration (ms, loopback) of a request with the cache off, and with every group read a hit. */
  warmMsOff: number;
  warmMsHit: number;
}

export interface Limits {
  partitionRru: number;
  lambdaConcurrency: number;
  stageRate: number;
  accountApiRate: number;
  /** A round trip to DynamoDB in the Region (loopback hides it): added to every Query a request makes. */
  dynamoRoundTripMs: number;
}

/** AWS's documented defaults (docs/scale.md names the pages). */
export const AWS_LIMITS = { partitionRru: 3000, lambdaConcurrency: 1000, accountApiRate: 10_000 } as const;

export interface Operating {
  rate: number;
  /** Read units a second on the hottest group's partition. */
  hotRru: number;
  /** Read units a second on the partitions of the 10th and the 100th most popular groups. */
  rank10Rru: number;
  rank100Rru: number;
  /** Share of the hottest group's reads answered from a container's cache. */
  hotHitRatio: number;
  /** Group reads answered from the cache, over all groups. */
  groupHitRatio: number;
  concurrency: number;
  rruPerRequest: number;
  durationMs: number;
}

/** Each group's share of requests (a request reads every group of its caller), most popular first. */
export function groupShares({ users, groups, zipf, groupsPerUser, hottestShare }: Population): number[] {
  const weights = Array.from({ length: groups }, (_, i) => 1 / (i + 1) ** zipf);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const shares = weights.map((w) => Math.min(1, (groupsPerUser * w) / total));
  if (hottestShare !== undefined) shares[0] = hottestShare;
  return users > 0 ? shares : [];
}

/**
 * The steady state at `rate` requests a second. A container answers from its cache until an entry's
 * time to live ends, so with `containers` equal to the concurrency (warm containers with no idle
 * spare: the best case) a group read by λ requests a second per container hits λT / (1 + λT) of the
 * time, and its partition sees at most one Query per container per T. Duration and concurrency
 * depend on the misses, so the two are solved together.
 */
export function operate(rate: number, shares: number[], m: Measured, l: Limits, ttlSeconds: number): Operating {
  const groupReads = shares.reduce((sum, s) => sum + s, 0);
  let concurrency = 1;
  let hits: number[] = shares.map(() => 0);
  let durationMs = 0;
  for (let i = 0; i < 50; i++) {
    const misses = shares.reduce((sum, s, g) => sum + s * (1 - (hits[g] ?? 0)), 0);
    const hitShare = groupReads > 0 ? 1 - misses / groupReads : 0;
    durationMs = m.warmMsOff + (m.warmMsHit - m.warmMsOff) * hitShare + (1 + misses) * l.dynamoRoundTripMs;
    const next = Math.max(1, (rate * durationMs) / 1000);
    hits = shares.map((s) => {
      const perContainer = ((rate * s) / next) * ttlSeconds;
      return perContainer / (1 + perContainer);
    });
    if (Math.abs(next - concurrency) < 1e-9 * next) break;
    concurrency = next;
  }
  const hot = hits[0] ?? 0;
  const missReads = shares.reduce((sum, s, g) => sum + s * (1 - (hits[g] ?? 0)), 0);
  const rru = (g: number) => rate * (shares[g] ?? 0) * (1 - (hits[g] ?? 0)) * m.groupRru;
  return {
    rate,
    hotRru: rru(0),
    rank10Rru: rru(9),
    rank100Rru: rru(99),
    hotHitRatio: hot,
    groupHitRatio: groupReads > 0 ? 1 - missReads / groupReads : 0,
    concurrency: (rate * durationMs) / 1000,
    rruPerRequest: m.ownRru + missReads * m.groupRru,
    durationMs,
  };
}

export interface Crossings {
  /** Request rates (per second) at which each limit is first crossed; Infinity: never. */
  hotPartition: number;
  lambdaConcurrency: number;
  stageThrottle: number;
  accountApiThrottle: number;
  /** The first limit crossed (the stage throttle raised to the account's, as a deployment at scale would). */
  firstBeyondThrottle: 'hot partition' | 'Lambda concurrency' | 'API Gateway account throttle';
}

export function crossings(shares: number[], m: Measured, l: Limits, ttlSeconds: number): Crossings {
  const at = (rate: number) => operate(rate, shares, m, l, ttlSeconds);
  const hotPartition = solve((rate) => at(rate).hotRru >= l.partitionRru);
  const lambdaConcurrency = solve((rate) => at(rate).concurrency >= l.lambdaConcurrency);
  const candidates = [
    ['hot partition', hotPartition],
    ['Lambda concurrency', lambdaConcurrency],
    ['API Gateway account throttle', l.accountApiRate],
  ] as const;
  const first = candidates.reduce((a, b) => (b[1] < a[1] ? b : a));
  return {
    hotPartition,
    lambdaConcurrency,
    stageThrottle: l.stageRate,
    accountApiThrottle: l.accountApiRate,
    firstBeyondThrottle: first[0],
  };
}

/** The smallest rate (to 0.1%) at which `crossed` holds, by bisection on a monotone metric; Infinity below 10^9. */
function solve(crossed: (rate: number) => boolean): number {
  let high = 1e9;
  if (!crossed(high)) return Number.POSITIVE_INFINITY;
  let low = 0;
  while (high - low > high * 1e-3) {
    const mid = (low + high) / 2;
    if (crossed(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** Callers it takes, each held to `perCallerRate` by the edge, to use up `rate` on their own. */
export const callersToReach = (rate: number, perCallerRate: number | undefined): number =>
  perCallerRate === undefined ? 1 : Math.ceil(rate / perCallerRate);
