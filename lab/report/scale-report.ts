// The tables bench:scale prints, which lab/docs/scale.md quotes verbatim (lab/test/doc-figures.test.ts):
// read units per group read at the default page, where each design crosses which limit for a
// company-wide group, and page walks with the chosen design.

import { type Crossings, LIMIT_NAMES } from '../scale/scale-model.ts';
import type { ItemSize } from '../scale/scale-read-units.ts';
import {
  CHOSEN,
  ITEM_REQUESTS,
  ITEM_SIZES,
  QUOTAS,
  type ScaleResults,
  type ScaleScenario,
} from '../scale/scale-scenarios.ts';

export const rate = (value: number | null) => (value === null ? 'never' : Math.round(value).toLocaleString('en-US'));
const count = (value: number) => value.toLocaleString('en-US');
/** The first limit crossed (ties joined by =) and the rate at which it is. */
export const firstLimit = (c: Crossings) =>
  `${c.first.map((name) => LIMIT_NAMES[name]).join(' = ')} at ${rate(c.rates[c.first[0] ?? 'accountApiRate'])}`;
const largestGroup = (r: ScaleResults) => Math.max(...r.groupReads.reads.map((read) => read.groupPlants));

/** Read units of one group read on a first page at the default page, cache off and on a miss. */
export function groupReadsTable(r: ScaleResults): string {
  const g = r.groupReads;
  const at = (plants: number, cached: boolean) =>
    g.reads.find((read) => read.pageSize === g.defaultPage && read.groupPlants === plants && read.cached === cached);
  const sizes = [...new Set(g.reads.map((read) => read.groupPlants))];
  return [
    `| company-wide group | items read, cache off | RRU | items read, cache miss | RRU |`,
    '|---|---|---|---|---|',
    ...sizes.map(
      (plants) =>
        `| ${count(plants)} plants | ${at(plants, false)?.itemsRead} | ${at(plants, false)?.measuredRru} | ${at(plants, true)?.itemsRead} | ${at(plants, true)?.measuredRru} |`,
    ),
  ].join('\n');
}

const crossingRow = (s: ScaleScenario) =>
  `| ${s.design} | ${count(s.quota)} | ${s.workload.hotReadRru} | ${rate(s.crossings.rates.hotPartition)} | ${firstLimit(s.crossings)} | ${Math.round(s.crossings.hotRruAtFirst).toLocaleString('en-US')} |`;

/** Every design, first pages of the largest company-wide group, at both concurrency quotas. */
export function designsTable(r: ScaleResults): string {
  return [
    '| design | concurrency quota | RRU per group read | hot partition crossed at (req/s) | first limit crossed (req/s) | hot partition RRU/s there |',
    '|---|---|---|---|---|---|',
    ...r.scenarios.filter((s) => s.groupPlants === largestGroup(r) && s.request === 'first page').map(crossingRow),
  ].join('\n');
}

/** Every limit's crossing with the chosen design, first pages of the largest group, at both quotas. */
export function limitsTable(r: ScaleResults): string {
  const chosen = QUOTAS.map((quota) =>
    r.scenarios.find(
      (s) =>
        s.design === CHOSEN && s.quota === quota && s.groupPlants === largestGroup(r) && s.request === 'first page',
    ),
  );
  const names = Object.keys(LIMIT_NAMES) as (keyof typeof LIMIT_NAMES)[];
  return [
    `| limit (req/s at which it is crossed) | ${QUOTAS.map((q) => `quota ${count(q)}`).join(' | ')} |`,
    `|---|${QUOTAS.map(() => '---').join('|')}|`,
    ...names.map(
      (name) => `| ${LIMIT_NAMES[name]} | ${chosen.map((s) => rate(s?.crossings.rates[name] ?? null)).join(' | ')} |`,
    ),
    `| API Gateway burst (requests at once) | ${chosen.map((s) => count(s?.crossings.burst ?? 0)).join(' | ')} |`,
    `| stage throttle as deployed | ${chosen.map((s) => count(s?.crossings.stageThrottle ?? 0)).join(' | ')} |`,
  ].join('\n');
}

const bytes = (size: ItemSize, r: ScaleResults) => (size === 'bench' ? `${r.benchItemBytes} B` : `${count(size)} B`);
/** A crossing below the account's API rate, else never (the API serves no more). */
const crossed = (value: number | null, r: ScaleResults) =>
  value === null || value >= r.limits.accountApiRate ? 'never' : rate(value);
const holds = (itemBytes: number | null) =>
  itemBytes === null ? 'any' : itemBytes === 0 ? 'none' : `${count(itemBytes)} B`;

/**
 * The chosen design at each item size: where the hot partition is crossed for first pages, walks of
 * every page (members owning equal, then different numbers of plants) and one member minting cursors,
 * and the largest item for which it is not crossed below the account's API rate.
 */
export function itemsTable(r: ScaleResults): string {
  const sizes = [...new Set(r.items.map((i) => i.groupPlants))];
  const head = QUOTAS.flatMap((q) => [
    ...ITEM_SIZES.map((size) => `quota ${count(q)}, ${bytes(size, r)} items`),
    `quota ${count(q)}: holds to`,
  ]);
  const rows = ITEM_REQUESTS.flatMap((request) =>
    sizes.map((plants) => {
      const at = (quota: number, size: ItemSize) =>
        r.items.find(
          (i) => i.request === request && i.quota === quota && i.groupPlants === plants && i.itemBytes === size,
        );
      const keys = at(QUOTAS[0] ?? 0, 'bench')?.keys;
      const cells = QUOTAS.flatMap((quota) => [
        ...ITEM_SIZES.map((size) => crossed(at(quota, size)?.hotPartition ?? null, r)),
        holds(
          r.holdsUpTo.find((h) => h.request === request && h.quota === quota && h.groupPlants === plants)?.itemBytes ??
            null,
        ),
      ]);
      return `| ${request}, ${count(plants)} plants | ${keys === null || keys === undefined ? 'one per request' : count(keys)} | ${cells.join(' | ')} |`;
    }),
  );
  return [
    `| hot partition crossed at (req/s) | cache keys | ${head.join(' | ')} |`,
    `|---|---|${head.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}

export function renderScale(r: ScaleResults): string {
  const { measured: x } = r;
  return [
    `Default page: ${r.groupReads.defaultPage} plants (${r.groupReads.ownPlants} own first); read units measured = computed.`,
    groupReadsTable(r),
    '',
    `Warm, cache off: ${x.off.rruPerRequest} RRU/request, mean ${x.off.meanMs} ms; cache on (${x.on.ttlSeconds} s): ${x.on.rruPerRequest} RRU/request, mean ${x.on.meanMs} ms`,
    `Limits: ${r.limits.partitionRru} RRU/s per key, ${r.limits.tableRru} RRU/s per table, Lambda ${r.limits.lambdaRpsPerConcurrency} × concurrency req/s, API Gateway ${r.limits.accountApiRate} req/s (burst ${r.limits.accountApiBurst}), stage ${r.limits.stageRate} req/s as deployed`,
    '',
    designsTable(r),
    '',
    limitsTable(r),
    '',
    itemsTable(r),
    '',
    `As deployed the stage throttle (${r.limits.stageRate} req/s) comes first: ${r.callersForStageThrottle === 1 ? 'one caller' : `${r.callersForStageThrottle} callers`} can take it.`,
  ].join('\n');
}
