// The scale model's arithmetic on known inputs, and a smoke run of `npm run bench:scale` with tiny
// counts: the measured read units feed the model, and the table, results.json's `scale` key and
// scale.svg are written.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { crossings, groupShares, type Limits, operate } from '../../bench/scale-model.ts';
import type { ScaleResults } from '../../bench/scale-scenarios.ts';

const limits: Limits = {
  partitionRru: 3000,
  lambdaConcurrency: 1000,
  stageRate: 50,
  accountApiRate: 10_000,
  dynamoRoundTripMs: 5,
};
const measured = { ownRru: 0.5, groupRru: 0.5, warmMsOff: 2, warmMsHit: 1 };

describe('the scale model', () => {
  it('gives each group its Zipf share of requests, every member reading it', () => {
    const shares = groupShares({ users: 1000, groups: 100, zipf: 1, groupsPerUser: 2 });
    expect(shares.reduce((sum, s) => sum + s, 0)).toBeCloseTo(2);
    expect((shares[0] ?? 0) / (shares[9] ?? 1)).toBeCloseTo(10);
    expect(groupShares({ users: 1000, groups: 100, zipf: 1, groupsPerUser: 2, hottestShare: 1 })[0]).toBe(1);
  });

  it('without the cache, crosses a partition where its members alone read 3,000 units a second', () => {
    const crossed = crossings([0.25], measured, limits, 0);
    // 3,000 RRU/s ÷ (a quarter of requests × 0.5 RRU) = 24,000 requests a second.
    expect(crossed.hotPartition).toBeGreaterThan(23_990);
    expect(crossed.hotPartition).toBeLessThan(24_030);
    // Each request: 2 ms plus 1.25 round trips of 5 ms (its own partition, a group a quarter of the
    // time), so 1,000 executions at 1,000 ÷ 0.00825 s, to the model's 0.1%.
    expect(Math.abs(crossed.lambdaConcurrency / (1000 / 0.00825) - 1)).toBeLessThan(0.002);
    expect(crossed.firstBeyondThrottle).toBe('API Gateway account throttle');
  });

  it('with the cache, reads a partition at most once per container per time to live', () => {
    for (const ttl of [1, 5, 30]) {
      const o = operate(50_000, [1], measured, limits, ttl);
      expect((o.hotRru / measured.groupRru) * ttl).toBeLessThanOrEqual(o.concurrency);
      expect(o.hotHitRatio).toBeGreaterThan(0.9);
    }
    const longer = [1, 5, 30].map((ttl) => operate(10_000, [1], measured, limits, ttl).hotRru);
    expect(longer).toEqual([...longer].sort((a, b) => b - a));
    expect(crossings([1], measured, limits, 5).hotPartition).toBeGreaterThan(
      crossings([1], measured, limits, 5).lambdaConcurrency,
    );
  });
});

const outDir = `${mkdtempSync(`${tmpdir()}/bench-scale-`)}/`;
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('npm run bench:scale (BENCH_QUICK=1)', () => {
  it("prints the limits, keeps bench's keys of results.json and adds the scale key, and draws scale.svg", async () => {
    // Prepare
    writeFileSync(`${outDir}results.json`, JSON.stringify({ quick: true, readCost: [] }));

    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['bench/scale.ts'], {
      env: { ...process.env, BENCH_QUICK: '1', BENCH_OUT: outDir },
    });

    // Assess
    const results = JSON.parse(readFileSync(`${outDir}results.json`, 'utf8'));
    expect(results).toMatchObject({ quick: true, readCost: [] });
    const scale = results.scale as ScaleResults;
    // Read units come from the capacity proxy: one page reads the own partition and both groups'.
    expect(scale.measured.groupRru).toBeGreaterThanOrEqual(0.5);
    expect(scale.measured.off.rruPerRequest).toBe(scale.measured.ownRru + 2 * scale.measured.groupRru);
    expect(scale.measured.on.rruPerRequest).toBeLessThan(scale.measured.off.rruPerRequest);
    const off = scale.scenarios.find((s) => s.ttlSeconds === 0 && s.hottestShare === 1);
    expect(off?.crossings.hotPartition).toBeCloseTo(3000 / scale.measured.groupRru, -1);
    expect(off?.crossings.firstBeyondThrottle).toBe('hot partition');
    expect(stdout).toContain('| population | hottest group | cache TTL | hot partition at |');
    expect(readFileSync(`${outDir}scale.svg`, 'utf8')).toMatch(
      /^<svg[\s\S]*3,000 RRU\/s per partition key[\s\S]*<\/svg>\n$/,
    );
  });
});
