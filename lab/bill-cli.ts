// `npm run bench:bill [-- <results.json>]`: the monthly bill, worst hour and flag prices recomputed
// from a results.json's measured per-request figures (the committed reference by default), without
// measuring anything: what to run after changing a price, a traffic level or the users assumed.

import { readFileSync } from 'node:fs';
import { UsageError } from '../local/cli/args.ts';
import { runCli } from '../local/cli/shell.ts';
import { billOf } from './cost/bill-of.ts';
import { billRows } from './report/bill-report.ts';
import type { BenchResults } from './results.ts';

const USAGE = `Usage: npm run bench:bill [-- RESULTS.json]

  Recomputes the monthly bill, the worst hour and every flag's price from a results file's measured
  figures (default: the committed reference, lab/results.json), measuring nothing.`;

await runCli({ usage: USAGE, options: {}, positionals: true }, ({ positionals }) => {
  if (positionals.length > 1) throw new UsageError(`Give one results file, got ${positionals.length}`);
  const file = positionals[0] ?? new URL('results.json', import.meta.url).pathname;
  let results: BenchResults;
  try {
    results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  } catch (error) {
    throw new Error(`Cannot read ${file} as a bench results file: ${(error as Error).message}`);
  }
  const { cost, warm } = results;
  const bill = billOf(cost, cost.monthlyUsd, { refusalDurationMs: Math.max(1, Math.ceil(warm.handler.p50Ms)) });
  console.log(billRows(bill).join('\n'));
});
