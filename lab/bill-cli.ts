// `npm run bench:bill -w lab [-- <monthly requests>] [-- <results.json>] [--update-reference]`: the monthly
// bill, worst hour and flag prices recomputed from a results.json's measured per-request figures (the
// committed reference by default) and the synthesized templates' fixed lines, without measuring anything:
// what to run after changing a price, a traffic level, the users assumed, the model or the options,
// written back with --update-reference (a removed option's sections go). Given a monthly request count,
// the month at that traffic, every line.

import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../local/cli/args.ts';
import { runCli } from '../local/cli/shell.ts';
import { levelAt, monthlyRow } from './cost/bill.ts';
import { billOf } from './cost/bill-of.ts';
import { monthlyCost } from './cost/monthly.ts';
import { BILLING_FACTS } from './cost/prices.ts';
import { ASSUMPTIONS } from './cost/traffic.ts';
import { billRows, monthRows } from './report/bill-report.ts';
import type { BenchResults } from './results.ts';

const USAGE = `Usage: npm run bench:bill -w lab [-- [--monthly-requests N | N] [RESULTS.json] [--update-reference]]

  Recomputes the monthly bill, the worst hour and every flag's price from a results file's measured
  figures (default: the committed reference, lab/results.json), measuring nothing; --update-reference
  writes them back into that file. With a monthly request count (10000000, 10e6), the month at that
  traffic instead, with ${ASSUMPTIONS.usersPerRequestPerSecond.toLocaleString('en-US')} monthly active users per request a second.`;

const COUNT = /^\d+(\.\d+)?(e\d+)?$/i;

await runCli(
  {
    usage: USAGE,
    options: { 'monthly-requests': { type: 'string' }, 'update-reference': { type: 'boolean', default: false } },
    positionals: true,
  },
  async ({ values, positionals }) => {
    const counts = [values['monthly-requests'], ...positionals.filter((p) => COUNT.test(p))].filter(
      (p): p is string => p !== undefined,
    );
    const files = positionals.filter((p) => !COUNT.test(p));
    if (files.length > 1) throw new UsageError(`Give one results file, got ${files.length}`);
    if (counts.length > 1) throw new UsageError(`Give one monthly request count, got ${counts.length}`);
    const requests = counts[0] === undefined ? undefined : Number(counts[0]);
    if (requests !== undefined && !(Number.isFinite(requests) && requests >= 1)) {
      throw new UsageError(`A monthly request count is a number from 1 up, got "${counts[0]}"`);
    }
    const file = files[0] ?? new URL('results.json', import.meta.url).pathname;
    let results: BenchResults;
    try {
      results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
    } catch (error) {
      throw new Error(`Cannot read ${file} as a bench results file: ${(error as Error).message}`);
    }
    const { cost, warm } = results;
    const bill = billOf(cost, await monthlyCost(), {
      refusalDurationMs: Math.max(1, Math.ceil(warm.handler.p50Ms)),
      cpuMs: warm.handler.p50Ms,
    });
    if (requests === undefined) {
      console.log(billRows(bill).join('\n'));
      // The measured figures stay as they were: only the sections computed from them are rewritten.
      if (values['update-reference']) writeFileSync(file, `${JSON.stringify({ ...results, cost: bill }, null, 2)}\n`);
      return;
    }
    if (values['update-reference']) throw new UsageError('--update-reference rewrites the whole bill: give no count');
    const { alarms, dashboard, contributorInsights, customMetrics } = cost.monthlyUsd;
    const fixed = { alarms, dashboard, contributorInsights, customMetrics };
    const level = levelAt(requests / (3600 * BILLING_FACTS.hoursPerMonth));
    console.log(monthRows(monthlyRow({ ...cost, storedItemBytes: bill.storedItemBytes }, fixed, level)).join('\n'));
  },
);
