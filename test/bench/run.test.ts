// Smoke test of `npm run bench`: the whole benchmark with tiny counts, checking what it writes.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { BenchResults } from '../../bench/results.ts';

const outDir = `${mkdtempSync(`${tmpdir()}/bench-`)}/`;
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('npm run bench -- --rtt 10 (BENCH_QUICK=1)', () => {
  it('prints the table and writes results.json, with its network section, and chart.svg', async () => {
    // Prepare
    const run = promisify(execFile);

    // Act
    const { stdout, stderr } = await run(process.execPath, ['bench/run.ts', '--rtt', '10'], {
      env: { ...process.env, BENCH_QUICK: '1', BENCH_OUT: outDir },
    });

    // Assess
    const results = JSON.parse(readFileSync(`${outDir}results.json`, 'utf8')) as BenchResults;
    expect(results.quick).toBe(true);
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
    expect(results.costPerMillion.httpApiTotal).toBeLessThan(results.costPerMillion.restApiTotal);
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
      "read cost: loading other users' plants",
      'read cost of one page, in many groups',
    ]) {
      const done = new RegExp(`^  ${phase}: (\\d+)/\\1 [a-z ]+ after`, 'm');
      expect({ phase, done: done.test(stderr) }).toEqual({ phase, done: true });
    }
  }, 120_000);
});
