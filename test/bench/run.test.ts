// Smoke test of `npm run bench`: the whole benchmark with tiny counts, checking what it writes.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { BenchResults } from '../../bench/results.ts';

const outDir = `${mkdtempSync(`${tmpdir()}/bench-`)}/`;
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('npm run bench (BENCH_QUICK=1)', () => {
  it('prints the table and writes results.json and chart.svg', async () => {
    // Prepare
    const run = promisify(execFile);

    // Act
    const { stdout } = await run(process.execPath, ['bench/run.ts'], {
      env: { ...process.env, BENCH_QUICK: '1', BENCH_OUT: outDir },
    });

    // Assess
    const results = JSON.parse(readFileSync(`${outDir}results.json`, 'utf8')) as BenchResults;
    expect(results.quick).toBe(true);
    expect(results.bundle.bytes).toBeGreaterThan(results.bundle.trivialBytes);
    expect(results.bundle.gzipBytes).toBeLessThan(results.bundle.bytes);
    expect(results.coldStart.handler.medianMs).toBeGreaterThan(0);
    expect(results.coldStart.ratio).toBeGreaterThan(0);
    expect(results.warm.handler.invocations).toBeGreaterThan(0);
    expect(results.warm.bare.p99Ms).toBeGreaterThanOrEqual(results.warm.bare.p50Ms);
    expect(results.readCost.map((point) => point.otherUsersPlants)).toEqual([0, 250]);
    for (const point of results.readCost) expect(point.queryCalls).toBe(1);
    expect(results.readCost[1]?.scanCapacityUnits).toBeGreaterThan(results.readCost[0]?.scanCapacityUnits ?? 0);
    expect(results.peakRssBytes.afterWarm).toBeGreaterThan(0);
    expect(results.costPerMillion.httpApiTotal).toBeLessThan(results.costPerMillion.restApiTotal);
    expect(results.targets).toHaveLength(4);
    expect(readFileSync(`${outDir}chart.svg`, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/);
    expect(stdout).toContain('| cold start, median (p90)');
  }, 120_000);
});
