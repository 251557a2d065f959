// The bill sections of results.json's `cost`, from its per-request figures: the monthly bill at
// each traffic level, the worst hour at the ceiling and every flag's price. Shared by `npm run
// bench` and `npm run bench:bill -w lab`, which recomputes them from a results.json without measuring.

import { storedItem } from '../../local/store/table.ts';
import { CALLER, plantsOf } from '../harness/shapes.ts';
import { monthlyBill, storedItemBytes } from './bill.ts';
import type { costOf } from './cost.ts';
import { edgePrice } from './edge.ts';
import { flagPrices } from './flag-prices.ts';
import { memoryPrices } from './memory.ts';
import type { monthlyCost } from './monthly.ts';
import { PRICES } from './prices.ts';
import { worstHourAtDefault } from './worst-hour.ts';

type Cost = ReturnType<typeof costOf>;

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
  const figures = { ...cost, storedItemBytes: benchItemBytes() };
  const edge = edgePrice({ ...cost, monthlyUsd });
  return {
    ...cost,
    monthlyUsd,
    storedItemBytes: figures.storedItemBytes,
    /** The bill of a month at 1, 10, 100 and 1,000 requests/s, every line adding up to its total. */
    monthly: monthlyBill(figures, { alarms, dashboard, contributorInsights, customMetrics }),
    /** The most an hour can cost at the default ceiling, by valid and by forged tokens. */
    worstHour: worstHourAtDefault({
      billedDurationMs: cost.billed.durationMs,
      refusalDurationMs,
      logBytesByStatus: cost.logBytesByStatus,
    }),
    /** The edge against the default stack: what it adds less what it replaces, on the same month. */
    edge,
    flagPrices: [
      ...flagPrices(cost.flags, cost.billed.durationMs),
      {
        flag: 'edge=true',
        perMillionUsd: edge.perMillionUsd,
        perMonthUsd: edge.perMonthUsd,
        fixed: `web ACL $${PRICES.wafWebAcl.usd}, ${edge.rules} rules, the blocked-flood alarm: $${edge.fixedMonthlyUsd.toFixed(2)} a month`,
      },
    ],
    /** Lambda's price and cold start at each memory size (-c memoryMb), from this run. */
    memory: memoryPrices({ billedDurationMs: cost.billed.durationMs, cpuMs, initMs: cost.billed.initMs }),
  };
}
