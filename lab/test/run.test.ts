// Smoke test of `npm run bench -w lab`: the whole benchmark with tiny counts, checking what it writes.

import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { BILLED_LINES } from '../cost/cost.ts';
import type { BenchResults } from '../results.ts';
import { benchRun } from './helpers/bench-run.ts';

const bench = benchRun('bench');
const { outDir } = bench;
afterAll(() => bench.cleanup());

describe('npm run bench -w lab -- --rtt 10 (BENCH_QUICK=1)', () => {
  it('prints the table and writes results.json, with its network section, and chart.svg', async () => {
    // Prepare
    const run = promisify(execFile);
    // What an earlier npm run bench:scale -w lab wrote: its own measurements, which this run must keep.
    const scale = { generatedAt: '2026-11-25T00:00:00.000Z', scenarios: [] };
    writeFileSync(`${outDir}results.json`, JSON.stringify({ quick: false, scale }));

    // Act
    const { stdout, stderr } = await run(process.execPath, ['run.ts', '--rtt', '10'], {
      env: { ...process.env, BENCH_QUICK: '1', ...bench.env },
    });

    // Assess
    const results = JSON.parse(readFileSync(`${outDir}results.json`, 'utf8')) as BenchResults;
    expect(results.quick).toBe(true);
    expect(results.scale).toEqual(scale);
    expect(results.bundle.bytes).toBeGreaterThan(results.bundle.trivialBytes);
    expect(results.bundle.gzipBytes).toBeLessThan(results.bundle.bytes);
    // The Tracer is a chunk of its own that a cold start with tracing off never reads.
    expect(results.bundle.coldStartBytes).toBeLessThan(results.bundle.bytes);
    expect(results.coldStart.handler.medianMs).toBeGreaterThan(0);
    expect(results.coldStart.ratio).toBeGreaterThan(0);
    expect(results.warm.handler.invocations).toBeGreaterThan(0);
    expect(results.warm.bare.p99Ms).toBeGreaterThanOrEqual(results.warm.bare.p50Ms);
    expect(results.warm.tracingOn.handler.invocations).toBe(results.warm.handler.invocations);
    expect(results.network?.rttMs).toBe(10);
    expect(results.network?.loopbackHandlerMedianMs).toBeGreaterThan(0);
    // Whatever init overlaps, a modelled round trip cannot make the first request free.
    expect(results.network?.handler.medianFirstRequestMs).toBeGreaterThanOrEqual(10);
    expect(results.readCost.map((point) => point.otherUsersPlants)).toEqual([0, 250]);
    for (const point of results.readCost) expect(point.queryCalls).toBe(1);
    expect(results.readCost[1]?.scanCapacityUnits).toBeGreaterThan(results.readCost[0]?.scanCapacityUnits ?? 0);
    // A caller in 20 groups pays for a page of 100 what a caller in one group pays.
    const groupPage = (groups: number, limit: number) =>
      results.groupReadCost.find((point) => point.groups === groups && point.limit === limit);
    expect(groupPage(20, 100)?.capacityUnits).toBe(groupPage(1, 100)?.capacityUnits);
    expect(groupPage(20, 100)?.plants).toBe(100);
    for (const point of results.groupReadCost) expect(point.queryCalls).toBeLessThanOrEqual(10);
    expect(results.peakRssBytes.afterWarm).toBeGreaterThan(0);
    // Every billed line, and a total that is their sum.
    const usd = results.cost.perMillionUsd;
    const { total, ...lines } = usd;
    expect(Object.keys(lines).sort()).toEqual([...BILLED_LINES].sort());
    expect(total).toBeCloseTo(
      Object.values(lines).reduce((sum, value) => sum + value, 0),
      3,
    );
    expect(usd.apiGateway).toBe(1);
    expect(usd.lambdaDuration).toBeGreaterThan(0);
    expect(usd.logsIngestion).toBeGreaterThan(0);
    // As deployed: a 200 writes nothing to the function's log; a refusal and a failure one record each.
    const byStatus = results.cost.logBytesByStatus;
    expect(byStatus['200'].functionLog).toBe(0);
    expect(byStatus['401'].functionLog).toBeGreaterThan(0);
    expect(byStatus['200'].apiAccessLog).toBeGreaterThan(100);
    expect(results.cost.functionRecords['401']).toEqual([expect.stringContaining('"reason":"expired"')]);
    expect(results.cost.functionRecords['503']).toEqual([expect.stringContaining('"ServerErrors":1')]);
    expect(results.cost.logBytesPerRequest.lambdaPlatform).toBe(0);
    expect(results.cost.flags.find((f) => f.flag === 'tracing=true')?.changeUsd).toBeGreaterThan(0.2);
    expect(results.cost.monthlyUsd.counts.alarms).toBeGreaterThanOrEqual(5);
    // Read units from a UUID-shaped caller and real-shaped plants: a 100-plant page is 1.5 RRU, not 1.
    expect(results.readCost[0]?.queryCapacityUnits).toBe(1.5);
    // Duration billed as the mean of each invocation rounded up, measured 10 ms from DynamoDB.
    expect(results.billedDuration.rttMs).toBe(10);
    expect(results.cost.billed.durationMs).toBe(results.billedDuration.meanBilledMs);
    expect(results.billedDuration.meanBilledMs).toBeGreaterThanOrEqual(10);
    expect(usd.cognito).toBeGreaterThan(0);
    // The month at each traffic level, every line adding up to its total.
    expect(results.cost.monthly.map((row) => row.requestsPerSecond)).toEqual([1, 10, 100, 1000]);
    for (const row of results.cost.monthly) {
      const { total: monthTotal, ...monthLines } = row.usd;
      expect(monthTotal).toBeCloseTo(
        Object.values(monthLines).reduce((sum, value) => sum + value, 0),
        6,
      );
    }
    expect(results.cost.worstHour.forgedTokensGatewayAuthorizerUsd).toBeLessThan(
      results.cost.worstHour.forgedTokensUsd.total,
    );
    expect(results.cost.flagPrices.map((f) => f.flag)).toContain('jwtAuthorizer=true');
    expect(results.targets.map((target) => target.name)).toContain('all-in cost per million');
    expect(results.targets.map((target) => target.name)).toContain('first request after init');
    const chart = readFileSync(`${outDir}chart.svg`, 'utf8');
    expect(chart).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/);
    expect(chart).toContain('10 ms round trip');
    expect(stdout).toContain('| cold start at 10 ms RTT, median (p90)');
    // The extra time after Node start-up as a difference: a ratio to a handler that does nothing reads as an alarm.
    expect(stdout).toMatch(/^\| cold start after Node start-up, median \| .* \| \+[\d.]+ ms \|$/m);
    // Each phase's progress, here as the lines written when stderr is not a terminal, each run to its end.
    for (const phase of [
      'building',
      'cold start',
      'cold start at 10 ms RTT',
      'warm',
      'warm at 10 ms RTT',
      "read cost: loading other users' plants",
      'read cost of one page, in many groups',
    ]) {
      const done = new RegExp(`^  ${phase}: (\\d+)/\\1 [a-z ]+ after`, 'm');
      expect({ phase, done: done.test(stderr) }).toEqual({ phase, done: true });
    }
    for (const item of [
      'API Gateway (HTTP API)',
      'Lambda INIT',
      'CloudWatch Logs ingestion',
      'X-Ray',
      'Data transfer out',
      'Cognito (Lite)',
      'Cognito (Lite, monthly active users)',
    ]) {
      expect(stdout).toContain(`| ${item} | $`);
    }
  });
});
