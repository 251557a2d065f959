// The tables bench:scale prints from the model's results: read units per group read, then where each
// design crosses which limit for a company-wide group, at both Lambda concurrency quotas.

import type { Crossings } from './scale-model.ts';
import { LIMIT_NAMES } from './scale-model.ts';
import { CHOSEN, type ScaleResults, type ScaleScenario } from './scale-scenarios.ts';

export const rate = (value: number | null) => (value === null ? 'never' : Math.round(value).toLocaleString('en-US'));
export const firstLimits = (c: Crossings) => c.first.map((name) => LIMIT_NAMES[name]).join(' = ');

const row = (s: ScaleScenario) =>
  `| ${s.design} | ${s.quota.toLocaleString('en-US')} | ${s.groupPlants.toLocaleString('en-US')} | ${s.request} | ${s.workload.hotReadRru} × ${s.workload.keys} | ${rate(s.crossings.rates.hotPartition)} | ${firstLimits(s.crossings)} at ${rate(s.crossings.rates[s.crossings.first[0] ?? 'accountApiRate'])} | ${s.crossings.hotRruAtFirst} |`;

export function renderScale(r: ScaleResults): string {
  const { groupReads: g, measured: x } = r;
  const atDefault = g.reads.filter((read) => read.pageSize === g.defaultPage);
  const largest = Math.max(...g.reads.map((read) => read.groupPlants));
  const lines = [
    `Default page: ${g.defaultPage} plants (${g.ownPlants} own first). Read units per group read there (measured = computed):`,
    ...atDefault.map(
      (read) =>
        `  group of ${read.groupPlants.toLocaleString('en-US')}: ${read.itemsRead} items, ${read.measuredRru} RRU ${read.cached ? '(cache miss: a whole page)' : '(cache off)'}`,
    ),
    `Warm, cache off: ${x.off.rruPerRequest} RRU/request, mean ${x.off.meanMs} ms; cache on (${x.on.ttlSeconds} s): ${x.on.rruPerRequest} RRU/request, mean ${x.on.meanMs} ms`,
    `Limits: ${r.limits.partitionRru} RRU/s per key, ${r.limits.tableRru} RRU/s per table, Lambda ${r.limits.lambdaRpsPerConcurrency} × concurrency req/s, API Gateway ${r.limits.accountApiRate} req/s (burst ${r.limits.accountApiBurst}), stage ${r.limits.stageRate} req/s as deployed`,
    '',
    '| design | concurrency quota | group plants | requests | RRU per miss × keys | hot partition at (req/s) | first limit crossed (stage raised) | hot RRU/s then |',
    '|---|---|---|---|---|---|---|---|',
    ...r.scenarios.filter((s) => s.groupPlants === largest && s.request === 'first page').map(row),
    ...r.scenarios
      .filter((s) => s.design === CHOSEN && !(s.groupPlants === largest && s.request === 'first page'))
      .map(row),
    '',
    `As deployed the stage throttle (${r.limits.stageRate} req/s) comes first: one caller can take it; behind the edge (${r.assumed.edgePerCallerRate.toFixed(1)} req/s per token) it takes ${r.callersForStageThrottle.withEdge}.`,
  ];
  return lines.join('\n');
}
