// The bill as markdown: the month at each traffic level (every line), the worst hour at the
// ceiling, and each flag's price. Printed by `npm run bench` and `npm run bench:bill`.

import { MONTHLY_LINES, type MonthlyLine } from '../cost/bill.ts';
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
    `| worst hour at the ceiling (${w.maxRequestsPerSecond} req/s): an estimate, throttles are targets | USD |`,
    '|---|---|',
    `| valid tokens, every page filled to the byte budget (${count(w.pageBytes.budget)} B) | ${usd(w.validTokensUsd.total)} |`,
    `| + requests past the ceiling up to the account throttle (429s: access log lines and bodies) | ${usd(w.throttledFloodUsd.total)} |`,
    `| **= worst hour** | **${usd(w.worstHourUsd.total)}** |`,
    `| … every page one plant of DynamoDB's largest item (${count(w.pageBytes.largest)} B, written outside the data CLI) | ${usd(w.worstHourUsd.withLargestPages)} |`,
    `| … if every request hung to the timeout, duration alone | ${usd(w.hungDurationUsd.reservedConcurrency)} with reserved concurrency, ${usd(w.hungDurationUsd.unreserved)} without |`,
    `| forged tokens instead, refused by the function | ${usd(w.forgedTokensUsd.total)} |`,
    `| forged tokens instead, refused by the gateway (jwtAuthorizer=true) | ${usd(w.forgedTokensGatewayAuthorizerUsd)} |`,
    `| authRequiredScope: a client fetching a token per call at the stage rate | ${usd(w.machineTokens.tokenPerCallHourUsd)} |`,
    '',
    '| flag | per million | per month at the priced traffic | also |',
    '|---|---|---|---|',
    ...cost.flagPrices.map(
      (f) =>
        `| \`${f.flag}\` | ${f.perMillionUsd >= 0 ? '+' : '−'}$${Math.abs(f.perMillionUsd).toFixed(4)} | ${f.perMonthUsd >= 0 ? '+' : '−'}${usd(Math.abs(f.perMonthUsd))} | ${f.fixed} |`,
    ),
  ];
}
