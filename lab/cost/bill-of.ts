// The bill sections of results.json's `cost`, from its per-request figures: the monthly bill at
// each traffic level, the worst hour at the ceiling and every flag's price. Shared by `npm run
// bench` and `npm run bench:bill -w lab`, which recomputes them from a results.json without measuring.

import { storedItem } from '../../local/store/table.ts';
import { CALLER, plantsOf } from '../harness/shapes.ts';
import { monthlyBill, storedItemBytes } from './bill.ts';
import type { costOf } from './cost.ts';
import { flagPrices } from './flag-prices.ts';
import { memoryPrices } from './memory.ts';
import type { monthlyCost } from './monthly.ts';
import { OPTION_COSTS } from './options.ts';
import { worstHourAtDefault } from './worst-hour.ts';

type Cost = ReturnType<typeof costOf>;
/** What costOf measures; the rest of results.json's `cost` is computed here. */
const MEASURED = [
  'assumptions',
  'billed',
  'perMillionUsd',
  'totalExcludingDataTransferUsd',
  'totalExcludingCognitoUsd',
  'logBytesPerRequest',
  'logBytesByStatus',
  'responseBytesPerRequest',
  'functionRecords',
  'flags',
] as const satisfies readonly (keyof Cost)[];

/** Billed bytes of the bench caller's plants as stored, on average: what each stored plant costs. */
export function benchItemBytes(): number {
  const items = plantsOf(CALLER, 100).map((plant) => storedItemBytes(storedItem(plant)));
  return Math.round(items.reduce((sum, bytes) => sum + bytes, 0) / items.length);
}

export function billOf(
  cost: Cost,
  monthlyUsd: Awaited<ReturnType<typeof monthlyCost>>,
  { refusalDurationMs, cpuMs }: { refusalDurationMs: number; cpuMs: number },
) {
  const { alarms, dashboard, contributorInsights, customMetrics } = monthlyUsd;
  // Only what costOf measured is kept: every section below is recomputed, and one of a removed option goes.
  const measured = Object.fromEntries(MEASURED.map((key) => [key, cost[key]])) as Pick<Cost, (typeof MEASURED)[number]>;
  const figures = { ...measured, storedItemBytes: benchItemBytes() };
  const hourInputs = {
    billedDurationMs: cost.billed.durationMs,
    refusalDurationMs,
    logBytesByStatus: cost.logBytesByStatus,
  };
  const worstHour = worstHourAtDefault(hourInputs);
  const options = Object.entries(OPTION_COSTS).map(([name, option]) => {
    const fixed = monthlyUsd.options[name];
    if (!fixed) throw new Error(`no monthly lines for the option ${name}: run the bench or bench:bill again`);
    return [name, option.bill(measured, fixed, worstHour, hourInputs)] as const;
  });
  return {
    ...measured,
    monthlyUsd,
    storedItemBytes: figures.storedItemBytes,
    /** The bill of a month at 1, 10, 100 and 1,000 requests/s, every line adding up to its total. */
    monthly: monthlyBill(figures, { alarms, dashboard, contributorInsights, customMetrics }),
    /** The most an hour can cost at the default ceiling, by valid and by forged tokens. */
    worstHour,
    /** Each option against the default stack (options/): what it adds less what it replaces, on the same month. */
    options: Object.fromEntries(options.map(([name, { section }]) => [name, section])),
    flagPrices: [...flagPrices(cost.flags, cost.billed.durationMs), ...options.map(([, { flagPrice }]) => flagPrice)],
    /** Lambda's price and cold start at each memory size (-c memoryMb), from this run. */
    memory: memoryPrices({ billedDurationMs: cost.billed.durationMs, cpuMs, initMs: cost.billed.initMs }),
  };
}
