// The bill as markdown: the month at each traffic level (every line), the worst hour at the
// ceiling, each flag's price, and each option's own lines. Printed by `npm run bench -w lab` and `npm run bench:bill -w lab`.

import { MONTHLY_LINES, type MonthlyLine, type MonthlyRow } from '../cost/bill.ts';
import { OPTION_COSTS } from '../cost/options.ts';
import type { BenchResults } from '../results.ts';

const LABELS: Record<MonthlyLine, string> = {
  apiGateway: 'API Gateway (HTTP API)',
  lambdaRequests: 'Lambda requests',
  lambdaDuration: 'Lambda duration',
  init: 'Lambda INIT',
  dynamodbReads: 'DynamoDB reads',
  dynamodbStorage: 'DynamoDB storage',
  pointInTimeRecovery: 'DynamoDB point-in-time recovery',
  logsIngestion: 'CloudWatch Logs ingestion',
  logsStorage: 'CloudWatch Logs storage',
  xray: 'X-Ray',
  dataTransferOut: 'Data transfer out',
  cognito: 'Cognito (Lite, monthly active users)',
  alarms: 'CloudWatch alarms',
  dashboard: 'CloudWatch dashboard',
  contributorInsights: 'Contributor Insights (throttled keys)',
  customMetrics: 'custom metrics (at most)',
};

const usd = (value: number) =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const count = (value: number) => value.toLocaleString('en-US');

/** One month at a traffic of the reader's own, every line (`npm run bench:bill -w lab -- N`). */
export function monthRows(row: MonthlyRow): string[] {
  return [
    `| a month (730 h) at ${count(Math.round(row.requests))} requests | USD |`,
    '|---|---|',
    `| requests a second, on average | ${row.requestsPerSecond.toFixed(2)} |`,
    `| monthly active users (1,000 per request a second) | ${count(Math.round(row.monthlyActiveUsers))} |`,
    ...MONTHLY_LINES.map((line) => `| ${LABELS[line]} | ${usd(row.usd[line])} |`),
    `| **total** | **${usd(row.usd.total)}** |`,
  ];
}

export function billRows(cost: BenchResults['cost']): string[] {
  const rows = cost.monthly;
  const header = rows.map((row) => `${count(row.requestsPerSecond)} req/s`);
  const w = cost.worstHour;
  return [
    `| a month (730 h) | ${header.join(' | ')} |`,
    `|---|${rows.map(() => '---').join('|')}|`,
    `| requests | ${rows.map((row) => `${(row.requests / 1e6).toFixed(1)} M`).join(' | ')} |`,
    `| monthly active users | ${rows.map((row) => count(row.monthlyActiveUsers)).join(' | ')} |`,
    `| stored plants (GB) | ${rows.map((row) => `${count(row.storedPlants)} (${row.storedGb})`).join(' | ')} |`,
    ...MONTHLY_LINES.map((line) => `| ${LABELS[line]} | ${rows.map((row) => usd(row.usd[line])).join(' | ')} |`),
    `| **total** | ${rows.map((row) => `**${usd(row.usd.total)}**`).join(' | ')} |`,
    '',
    `| worst hour at the ceiling (${w.maxRequestsPerSecond} req/s): an estimate | USD |`,
    '|---|---|',
    `| admitted: every page filled to the byte budget (${count(w.pageBytes.budget)} B) | ${usd(w.validTokensUsd.total)} |`,
    `| each 1,000 req/s of flood past the ceiling (largest lines: lean ${w.floodBytes.accessLog.lean} B, full ${w.floodBytes.accessLog.full} B) | ${usd(w.floodPerThousandUsd.lean)} (full: ${usd(w.floodPerThousandUsd.full)}; +${usd(w.floodPerThousandUsd.if404sBilled)} if 404s are billed) |`,
    `| … with jwtAuthorizer=true (largest lines: lean ${w.floodBytes.accessLogWithJwtAuthorizer.lean} B, full ${w.floodBytes.accessLogWithJwtAuthorizer.full} B) | ${usd(w.floodPerThousandWithJwtAuthorizerUsd.lean)} (full: ${usd(w.floodPerThousandWithJwtAuthorizerUsd.full)}) |`,
    `| **= worst hour, with the account throttle's worth of flood** | **${usd(w.worstHourUsd.total)}** |`,
    `| … every page one plant of DynamoDB's largest item (${count(w.pageBytes.largest)} B, written outside the data CLI) | ${usd(w.worstHourUsd.withLargestPages)} |`,
    `| … if every request hung to the timeout, duration alone | ${usd(w.hungDurationUsd.reservedConcurrency)} with reserved concurrency, ${usd(w.hungDurationUsd.unreserved)} without |`,
    `| forged tokens instead, refused by the function | ${usd(w.forgedTokensUsd.total)} |`,
    `| forged tokens instead, refused by the gateway (jwtAuthorizer=true) | ${usd(w.forgedTokensGatewayAuthorizerUsd)} |`,
    `| authRequiredScope: each token a second / a client fetching a token per call at the stage rate | ${usd(w.machineTokens.perTokenPerSecondHourUsd)} / ${usd(w.machineTokens.tokenPerCallHourUsd)} |`,
    '',
    'Each memory size scaled from this run by its CPU share (lab/cost/memory.ts), not measured on Lambda:',
    '',
    '| memoryMb | billed duration (ms) | cold start (ms) | Lambda per million | per month at the priced traffic |',
    '|---|---|---|---|---|',
    ...cost.memory.map(
      (m) =>
        `| ${m.memoryMb} | ${m.durationMs} | ${m.coldStartMs} | ${usd(m.lambdaPerMillionUsd)} | ${usd(m.lambdaPerMonthUsd)} |`,
    ),
    '',
    '| flag | per million | per month at the priced traffic | also |',
    '|---|---|---|---|',
    ...cost.flagPrices.map(
      (f) =>
        `| \`${f.flag}\` | ${f.perMillionUsd >= 0 ? '+' : '−'}$${Math.abs(f.perMillionUsd).toFixed(4)} | ${f.perMonthUsd >= 0 ? '+' : '−'}${usd(Math.abs(f.perMonthUsd))} | ${f.fixed} |`,
    ),
    ...Object.entries(OPTION_COSTS).flatMap(([name, option]) => ['', ...option.report(cost.options[name])]),
  ];
}
