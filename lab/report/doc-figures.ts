// The figures lab/docs/cost.md and docs/deploy.md quote, each rendered from the committed reference
// (lab/results.json): lab/test/doc-figures.test.ts fails when a page says anything else.
// Money under $10 in cents, above in whole dollars, as the pages write it.

import { MAX_REQUESTS_PER_SECOND } from '../../infra/ceiling.ts';
import type { BenchResults } from '../results.ts';

type Cost = BenchResults['cost'];
type Row = Cost['monthly'][number];

/** Half up, robust to binary fractions (0.285 → 0.29). */
const roundTo = (value: number, digits: number) => Math.round(value * 10 ** digits + 1e-9) / 10 ** digits;

export function money(value: number, sign = false): string {
  const abs = Math.abs(value);
  const shown = abs < 10 ? roundTo(abs, 2).toFixed(2) : Math.round(abs).toLocaleString('en-US');
  return `${value < 0 ? '−' : sign ? '+' : ''}$${shown}`;
}

const millions = (n: number) =>
  n >= 1e9 ? `${roundTo(n / 1e9, 1)} bn` : n >= 1e7 ? `${Math.round(n / 1e6)} M` : `${roundTo(n / 1e6, 1)} M`;
const users = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n.toLocaleString('en-US'));
const add = (row: Row, lines: (keyof Row['usd'])[]) => lines.reduce((sum, line) => sum + row.usd[line], 0);

/** lab/docs/cost.md's month at each traffic level: lines grouped by service. */
export function monthlyTable(cost: Cost): string {
  const rows = cost.monthly;
  const line = (label: string, of: (row: Row) => number) =>
    `| ${label} | ${rows.map((r) => money(of(r))).join(' | ')} |`;
  return [
    `| a month | ${rows.map((r) => `${r.requestsPerSecond.toLocaleString('en-US')} req/s`).join(' | ')} |`,
    `|---|${rows.map(() => '---').join('|')}|`,
    `| requests / active users | ${rows.map((r) => `${millions(r.requests)} / ${users(r.monthlyActiveUsers)}`).join(' | ')} |`,
    line('API Gateway', (r) => r.usd.apiGateway),
    line('Lambda', (r) => add(r, ['lambdaRequests', 'lambdaDuration', 'init'])),
    line('DynamoDB', (r) => add(r, ['dynamodbReads', 'dynamodbStorage', 'pointInTimeRecovery'])),
    line('CloudWatch Logs', (r) => add(r, ['logsIngestion', 'logsStorage'])),
    line('data transfer out', (r) => r.usd.dataTransferOut),
    line('Cognito (Lite)', (r) => r.usd.cognito),
    line('alarms, dashboard, metrics, Contributor Insights', (r) =>
      add(r, ['alarms', 'dashboard', 'contributorInsights', 'customMetrics']),
    ),
    `| **total** | ${rows.map((r) => `**${money(r.usd.total)}**`).join(' | ')} |`,
  ].join('\n');
}

/** lab/docs/cost.md's worst hour at the default ceiling (an option's: its own page). */
export function worstHourTable(cost: Cost): string {
  const w = cost.worstHour;
  const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KiB`;
  const flood = (MAX_REQUESTS_PER_SECOND - w.maxRequestsPerSecond).toLocaleString('en-US');
  return [
    `| at the default ceiling (${w.maxRequestsPerSecond} req/s) | an hour |`,
    '|---|---|',
    `| every admitted page filled to the byte budget (${kb(w.pageBytes.budget)}) | ${money(w.validTokensUsd.total)} |`,
    `| each 1,000 req/s of flood past the ceiling | ${money(w.floodPerThousandUsd.lean)} (\`full\`: ${money(w.floodPerThousandUsd.full)}) |`,
    `| **an hour with ${flood} req/s of flood** | **${money(w.worstHourUsd.total)}** |`,
    `| … every page one plant of DynamoDB's largest item (${kb(w.pageBytes.largest)}) | ${money(w.worstHourUsd.withLargestPages)} |`,
    `| … every request hanging to the 15 s timeout | + ${money(w.hungDurationUsd.unreserved)}; ${money(w.hungDurationUsd.reservedConcurrency)} with \`reserveConcurrency\` |`,
    `| forged tokens instead of valid ones | ${money(w.forgedTokensUsd.total)}; ${money(w.forgedTokensGatewayAuthorizerUsd)} with \`jwtAuthorizer\` |`,
    `| \`authRequiredScope\`: each token a second; a token per call | ${money(w.machineTokens.perTokenPerSecondHourUsd)}; ${money(w.machineTokens.tokenPerCallHourUsd)} |`,
  ].join('\n');
}

/** lab/docs/cost.md's price of each memory size. */
export function memoryTable(cost: Cost): string {
  return [
    '| `memoryMb` | billed duration | cold start (INIT) | Lambda per million | a month at 100 req/s |',
    '|---|---|---|---|---|',
    ...cost.memory.map(
      (m) =>
        `| ${m.memoryMb.toLocaleString('en-US')} | ${m.durationMs} ms | ${m.coldStartMs} ms | ${money(m.lambdaPerMillionUsd)} | ${money(m.lambdaPerMonthUsd)} |`,
    ),
  ].join('\n');
}

/** A flag's price as lab/docs/cost.md's table writes it: per million, per month. */
export function flagCells(cost: Cost, flag: string): string[] {
  const f = cost.flagPrices.find((price) => price.flag === flag);
  if (!f) throw new Error(`no price for ${flag}`);
  return [money(f.perMillionUsd, true), money(f.perMonthUsd, true)];
}
