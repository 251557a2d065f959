// The monthly bill at 1, 10, 100 and 1,000 requests a second: every line, Cognito and the fixed
// monthly lines included, from the measured per-request figures in results.json's `cost` (so it can
// be recomputed without re-measuring: `npm run bench:bill -w lab`). Volume tiers are applied per month.

import type { BILLED_LINES, PerMillion } from './cost.ts';
import { cents, forRequests, GB } from './money.ts';
import { COGNITO_LITE_TIERS, DATA_TRANSFER_TIERS, HTTP_API_TIERS, tiered } from './price-tiers.ts';
import { BILLING_FACTS, PRICES } from './prices.ts';
import { ASSUMPTIONS, monthlyRequests } from './traffic.ts';

/** Stated for every level: users scale with traffic; each user has the bench caller's 100 plants. */
export const PLANTS_PER_USER = 100;
export const TRAFFIC_LEVELS = [1, 10, 100, 1000] as const;

export interface Level {
  requestsPerSecond: number;
  monthlyActiveUsers: number;
  /** Plants stored: every active user's, PLANTS_PER_USER each. */
  storedPlants: number;
}

export const levelAt = (requestsPerSecond: number): Level => {
  const monthlyActiveUsers = requestsPerSecond * ASSUMPTIONS.usersPerRequestPerSecond;
  return { requestsPerSecond, monthlyActiveUsers, storedPlants: monthlyActiveUsers * PLANTS_PER_USER };
};

/** What the bill needs of one bench run (all in results.json's `cost`). */
export interface PerRequestFigures {
  perMillionUsd: PerMillion;
  responseBytesPerRequest: number;
  billed: { apiUnits: number };
  /** Billed bytes of one stored plant (attribute names and values plus DynamoDB's 100). */
  storedItemBytes: number;
}

/** What the stack costs a month whatever the traffic (lab/cost/monthly.ts, from the synthesized template). */
export interface FixedMonthly {
  alarms: number;
  dashboard: number;
  contributorInsights: number;
  customMetrics: number;
}

export const MONTHLY_LINES = [
  'apiGateway',
  'lambdaRequests',
  'lambdaDuration',
  'init',
  'dynamodbReads',
  'dynamodbStorage',
  'pointInTimeRecovery',
  'logsIngestion',
  'logsStorage',
  'xray',
  'dataTransferOut',
  'cognito',
  'alarms',
  'dashboard',
  'contributorInsights',
  'customMetrics',
] as const;
export type MonthlyLine = (typeof MONTHLY_LINES)[number];

export interface MonthlyRow extends Level {
  requests: number;
  storedGb: number;
  usd: Record<MonthlyLine | 'total', number>;
}

export function monthlyRow(figures: PerRequestFigures, fixed: FixedMonthly, level: Level): MonthlyRow {
  const requests = monthlyRequests(level.requestsPerSecond);
  const perRequest = (line: (typeof BILLED_LINES)[number]) => forRequests(figures.perMillionUsd[line], requests);
  const storedGb = (level.storedPlants * figures.storedItemBytes) / GB;
  const lines: Record<MonthlyLine, number> = {
    apiGateway: tiered(requests * figures.billed.apiUnits, HTTP_API_TIERS),
    lambdaRequests: perRequest('lambdaRequests'),
    lambdaDuration: perRequest('lambdaDuration'),
    init: perRequest('init'),
    dynamodbReads: perRequest('dynamodb'),
    dynamodbStorage: storedGb * PRICES.dynamodbStorage.usd,
    pointInTimeRecovery: storedGb * PRICES.dynamodbPitr.usd,
    logsIngestion: perRequest('logsIngestion'),
    logsStorage: perRequest('logsStorage'),
    xray: perRequest('xray'),
    dataTransferOut: tiered((requests * figures.responseBytesPerRequest) / 1e9, DATA_TRANSFER_TIERS),
    cognito: tiered(level.monthlyActiveUsers, COGNITO_LITE_TIERS),
    ...fixed,
  };
  const usd = Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, cents(v)])) as MonthlyRow['usd'];
  // The total is the sum of the rounded lines, so the table adds up as printed.
  usd.total = cents(MONTHLY_LINES.reduce((sum, line) => sum + usd[line], 0));
  return { ...level, requests, storedGb: Math.round(storedGb * 1000) / 1000, usd };
}

export function monthlyBill(figures: PerRequestFigures, fixed: FixedMonthly): MonthlyRow[] {
  return TRAFFIC_LEVELS.map((rps) => monthlyRow(figures, fixed, levelAt(rps)));
}

/** Billed bytes of a stored item: UTF-8 attribute names and string values, plus DynamoDB's overhead. */
export function storedItemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(String(value)),
    BILLING_FACTS.dynamodbItemOverheadBytes,
  );
}
