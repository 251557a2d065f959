// The monthly bill and the worst hour: every line present, lines adding up to the total, volume
// tiers and 512 KB metering applied, Cognito by monthly active users on the Lite plan; the worst hour
// as the sum of what can happen together at the ceiling.

import { describe, expect, it } from '@jest/globals';
import { HEADROOM, PAGE_BYTE_BUDGET } from '../../handlers/lib/page-budget.ts';
import { ceilingFor } from '../../infra/ceiling.ts';
import { levelAt, MONTHLY_LINES, monthlyBill, monthlyRow, storedItemBytes, TRAFFIC_LEVELS } from '../cost/bill.ts';
import { benchItemBytes } from '../cost/bill-of.ts';
import { BILLED_LINES, type PerMillion } from '../cost/cost.ts';
import { COGNITO_LITE_TIERS, tiered } from '../cost/price-tiers.ts';
import { worstHour } from '../cost/worst-hour.ts';
import { hourInputs } from './helpers/hour-inputs.ts';

// Per-request figures of the shape a bench run writes (values near a real run's).
const perMillionUsd = Object.fromEntries(BILLED_LINES.map((line) => [line, 0.1])) as PerMillion;
perMillionUsd.total = 0.1 * BILLED_LINES.length;
const figures = { perMillionUsd, responseBytesPerRequest: 4700, billed: { apiUnits: 1 }, storedItemBytes: 200 };
const fixed = { alarms: 1, dashboard: 3, contributorInsights: 1, customMetrics: 6.6 };

describe('monthlyBill', () => {
  it('prices 1, 10, 100 and 1,000 requests a second, each row with every line adding up to its total', () => {
    // Act
    const rows = monthlyBill(figures, fixed);

    // Assess
    expect(rows.map((row) => row.requestsPerSecond)).toEqual([...TRAFFIC_LEVELS]);
    for (const row of rows) {
      const { total, ...lines } = row.usd;
      expect(Object.keys(lines).sort()).toEqual([...MONTHLY_LINES].sort());
      expect(total).toBeCloseTo(
        Object.values(lines).reduce((sum, value) => sum + value, 0),
        6,
      );
      expect(row.requests).toBe(row.requestsPerSecond * 3600 * 730);
    }
  });

  it('bills Cognito by monthly active users: the first 10,000 free, then the Lite tiers', () => {
    const [one, ten, hundred, thousand] = monthlyBill(figures, fixed);
    expect(one?.usd.cognito).toBe(0);
    expect(ten?.usd.cognito).toBe(0);
    expect(hundred?.usd.cognito).toBe(495); // 90,000 × $0.0055
    expect(thousand?.usd.cognito).toBe(495 + 4140); // and 900,000 × $0.0046
    // Past a million the lower tiers were not checked: priced at $0.0046, the higher figure.
    expect(tiered(2_000_000, COGNITO_LITE_TIERS)).toBeCloseTo(495 + 1_900_000 * 0.0046, 6);
  });

  it('applies the HTTP API price past 300 million requests and meters large answers in 512 KB units', () => {
    const small = monthlyRow(figures, fixed, levelAt(1000));
    // 2,628 million requests: 300 million at $1.00, the rest at $0.90 per million.
    expect(small.usd.apiGateway).toBeCloseTo(300 + 2328 * 0.9, 2);
    const sixMbPages = monthlyRow({ ...figures, billed: { apiUnits: 12 } }, fixed, levelAt(1));
    expect(sixMbPages.usd.apiGateway).toBeCloseTo(12 * 2.628, 2);
  });

  it('stores every user’s plants: storage at $0.25 and point-in-time recovery at $0.20 per GB-month', () => {
    const row = monthlyRow(figures, fixed, levelAt(1000));
    // 1,000,000 users × 100 plants × 200 B = 20 GB.
    expect(row.storedGb).toBe(20);
    expect(row.usd.dynamodbStorage).toBe(5);
    expect(row.usd.pointInTimeRecovery).toBe(4);
  });

  it('sizes a stored plant as DynamoDB bills it: names, values and 100 bytes, a 36-character sub in its key', () => {
    expect(storedItemBytes({ owner: 'user#abc', id: 'p1' })).toBe(5 + 8 + 2 + 2 + 100);
    // owner (5 + 41) + id (2 + 21) + name (4 + ~22) + tag (3 + 6, on most) + 100.
    expect(benchItemBytes()).toBeGreaterThan(190);
  });
});

describe('worstHour', () => {
  const inputs = hourInputs();

  it('bounds the hour by the ceiling: the table maximum caps the reads, reserved concurrency the duration', () => {
    // Act
    const at100 = worstHour(inputs, ceilingFor(100));
    const at1000 = worstHour(inputs, ceilingFor(1000));

    // Assess: the table's maximum for an hour at $0.125 per million.
    expect(at100.validTokensUsd.dynamodbReads).toBeCloseTo(
      (ceilingFor(100).maxReadRequestUnits * 3600 * 0.125) / 1e6,
      4,
    );
    expect(at100.hungDurationUsd.reservedConcurrency).toBe(1.2); // 25 environments × 1 GB × 3,600 s
    expect(at100.hungDurationUsd.unreserved).toBe(72); // 100/s × 15 s × 3,600 s
    expect(at1000.validTokensUsd.total).toBeGreaterThan(at100.validTokensUsd.total * 9);
  });

  it('sends at most the stage rate of pages filled to the byte budget, each one billed request', () => {
    const hour = worstHour(inputs, ceilingFor(100));
    // 360,000 pages of 80 KiB at $0.09 per GB; one 512 KB metering unit each at $1.00 per million.
    expect(hour.validTokensUsd.dataTransferOut).toBeCloseTo((360_000 * (PAGE_BYTE_BUDGET + HEADROOM) * 0.09) / 1e9, 4);
    expect(hour.validTokensUsd.apiGateway).toBeCloseTo(0.36, 4);
    // A single plant of DynamoDB's largest item per page: 6 metering units, the bound per response.
    expect(hour.largestPagesUsd.apiGateway).toBeCloseTo(6 * 0.36, 4);
  });

  it('adds up what can happen together: admitted full pages and a flood priced per 1,000 req/s at its largest lines', () => {
    const hour = worstHour(inputs, ceilingFor(100));
    const lines = (record: Record<string, number>) =>
      Object.entries(record).reduce((sum, [line, usd]) => (line === 'total' ? sum : sum + usd), 0);
    expect(hour.throttledFloodUsd.total).toBeCloseTo(lines(hour.throttledFloodUsd), 2);
    // 1,000 requests a second for an hour: the largest lean line at $0.25 per GB, API Gateway's 429 at $0.09.
    const perThousand = (3.6e6 * (hour.floodBytes.accessLog.lean * 0.25 + hour.floodBytes.response * 0.09)) / 1e9;
    expect(hour.floodPerThousandUsd.lean).toBeCloseTo(perThousand, 2);
    expect(hour.floodPerThousandUsd.full).toBeGreaterThan(hour.floodPerThousandUsd.lean);
    // The flood of the account throttle's worth: 9,900 req/s past the stage.
    expect(hour.throttledFloodUsd.total).toBeCloseTo(9.9 * perThousand, 1);
    expect(hour.worstHourUsd.total).toBeCloseTo(hour.validTokensUsd.total + hour.throttledFloodUsd.total, 2);
    expect(hour.worstHourUsd.withLargestPages).toBeGreaterThan(hour.worstHourUsd.total);
  });

  it('prices a machine client fetching a token per call at the stage rate: $2.25 per 1,000 tokens', () => {
    expect(worstHour(inputs, ceilingFor(100)).machineTokens.tokenPerCallHourUsd).toBe(810);
  });

  it('prices a flood with the gateway’s JWT authorizer at its own lines, the caller and the authorizer’s error on each', () => {
    const hour = worstHour(inputs, ceilingFor(100));
    const { accessLog, accessLogWithJwtAuthorizer: withAuthorizer, response } = hour.floodBytes;
    for (const format of ['lean', 'full'] as const) {
      // At least the caller's 255-byte sub more on each line (`full` already has the error's field).
      expect(withAuthorizer[format] - accessLog[format]).toBeGreaterThan(255);
      const perThousand = (3.6e6 * (withAuthorizer[format] * 0.25 + response * 0.09)) / 1e9;
      expect(hour.floodPerThousandWithJwtAuthorizerUsd[format]).toBeCloseTo(perThousand, 2);
    }
  });

  it('costs least when the gateway refuses forged tokens: no request billed, an access log line each', () => {
    const hour = worstHour(inputs, ceilingFor(100));
    expect(hour.forgedTokensGatewayAuthorizerUsd).toBeLessThan(hour.forgedTokensUsd.total / 10);
    expect(hour.forgedTokensUsd.apiGateway).toBeCloseTo(0.36, 4);
  });
});
