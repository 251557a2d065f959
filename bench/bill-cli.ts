// `npm run bench:bill [-- <results.json>]`: the monthly bill, worst hour and flag prices recomputed
// from a results.json's measured per-request figures (the committed reference by default), without
// measuring anything: what to run after changing a price, a traffic level or the users assumed.

import { readFileSync } from 'node:fs';
import { billOf } from './cost/bill-of.ts';
import { billRows } from './report/bill-report.ts';
import type { BenchResults } from './results.ts';

const file = process.argv[2] ?? new URL('results.json', import.meta.url).pathname;
const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
const { cost, warm } = results;
const bill = billOf(cost, cost.monthlyUsd, { refusalDurationMs: Math.max(1, Math.ceil(warm.handler.p50Ms)) });
console.log(billRows(bill).join('\n'));
