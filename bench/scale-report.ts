// The table bench:scale prints from the model's results: limits per population and time to live,
// then the reads on each partition at a few request rates.

import type { ScaleResults } from './scale-scenarios.ts';

const rate = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'never');

/** The table bench:scale prints: one row per population and time to live. */
export function renderScale(r: ScaleResults): string {
  const { measured: x } = r;
  const lines = [
    `Page: ${r.pageShape.ownPlants} own plants + ${r.pageShape.groupsPerUser} groups of ${r.pageShape.groupPlants}, limit ${r.pageShape.limit}; measured ${x.ownRru} RRU own + ${x.groupRru} RRU per group partition`,
    `Warm, cache off: ${x.off.rruPerRequest} RRU/request, p50 ${x.off.p50Ms} ms, mean ${x.off.meanMs} ms; cache on (${x.on.ttlSeconds} s): ${x.on.rruPerRequest} RRU/request, p50 ${x.on.p50Ms} ms, mean ${x.on.meanMs} ms`,
    `Limits: ${r.limits.partitionRru} RRU/s per partition key, ${r.limits.lambdaConcurrency} concurrent executions, stage throttle ${r.limits.stageRate} req/s (default), account ${r.limits.accountApiRate} req/s; assumed ${r.assumed.dynamoRoundTripMs} ms per DynamoDB round trip`,
    '',
    '| population | hottest group | cache TTL | hot partition at | Lambda concurrency at | first beyond throttle | at 10,000 req/s: hot RRU/s, hit %, concurrency |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of r.scenarios) {
    const at = s.at.find((o) => o.rate === 10_000);
    lines.push(
      `| ${s.population} | ${(100 * s.hottestShare).toFixed(1)}% of requests | ${s.ttlSeconds === 0 ? 'off' : `${s.ttlSeconds} s`} | ${rate(s.crossings.hotPartition)} req/s | ${rate(s.crossings.lambdaConcurrency)} req/s | ${s.crossings.firstBeyondThrottle} | ${at ? `${at.hotRru}, ${(100 * at.hotHitRatio).toFixed(1)}%, ${at.concurrency}` : ''} |`,
    );
  }
  const first = r.scenarios.filter((s) => s.population === r.scenarios[0]?.population);
  lines.push(
    '',
    `Per partition, ${first[0]?.population} (own: ${x.ownRru} RRU per request of its one user, whatever the rate):`,
    '| req/s | cache TTL | group #1 RRU/s | #10 | #100 | group reads from cache | RRU/request | concurrency (containers) |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const s of first.filter((s) => s.ttlSeconds === 0 || s.ttlSeconds === 5)) {
    for (const o of s.at) {
      lines.push(
        `| ${o.rate.toLocaleString('en-US')} | ${s.ttlSeconds === 0 ? 'off' : `${s.ttlSeconds} s`} | ${o.hotRru} | ${o.rank10Rru} | ${o.rank100Rru} | ${(100 * o.groupHitRatio).toFixed(1)}% | ${o.rruPerRequest} | ${o.concurrency} |`,
      );
    }
  }
  const edge = r.scenarios[0]?.callersForStageThrottle;
  const solo = (ttl: number) => r.scenarios.find((s) => s.ttlSeconds === ttl)?.callersForHotPartition.withEdge;
  lines.push(
    '',
    `Greedy callers: one caller can take the whole ${r.limits.stageRate} req/s stage throttle; behind the edge (${r.assumed.edgePerCallerRate.toFixed(1)} req/s per token) it takes ${edge?.withEdge}.`,
    `Callers of one group it takes, behind the edge, to cross its partition on their own: ${solo(0)?.toLocaleString('en-US')} with the cache off, ${solo(5)?.toLocaleString('en-US')} with a 5 s cache.`,
  );
  return lines.join('\n');
}
