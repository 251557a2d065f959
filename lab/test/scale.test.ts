// The scale model's arithmetic on known inputs; the committed reference's verdict at the API's own
// default page; and a smoke run of `npm run bench:scale -w lab` with tiny counts: group reads measured equal
// the 4 KB computation, and the table, results.json's `scale` key and scale.svg are written.

import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { AWS_LIMITS, crossings, hotPartitionRru, type Limits, type Workload } from '../scale/scale-model.ts';
import { groupReadItems, groupReadUnits, readUnitsAt, walkKeyReads, walkKeys } from '../scale/scale-read-units.ts';
import { CHOSEN, QUOTAS, type ScaleResults } from '../scale/scale-scenarios.ts';
import { benchRun } from './helpers/bench-run.ts';

const limits: Limits = { ...AWS_LIMITS, stageRate: 100 };
const workload: Workload = { hotShare: 1, hotReadRru: 10, keys: 1, otherRru: 0.5, durationMs: 20 };

describe('the scale model', () => {
  it('without the cache, crosses the partition where its readers alone read 3,000 units a second', () => {
    const crossed = crossings(workload, { ttlSeconds: 0, warmContainers: 1000 }, limits);
    expect(crossed.rates.hotPartition).toBeCloseTo(3000 / workload.hotReadRru, -1);
    expect(crossed.first).toEqual(['hotPartition']);
  });

  it('bounds the partition by warm containers ÷ time to live × read units × keys, not by the rate', () => {
    for (const keys of [1, 11]) {
      const w = { ...workload, hotReadRru: 1, keys };
      const design = { ttlSeconds: 5, warmContainers: 10_000 };
      const bound = (design.warmContainers / design.ttlSeconds) * w.hotReadRru * keys;
      expect(hotPartitionRru(1e9, w, design)).toBeLessThanOrEqual(bound);
      expect(hotPartitionRru(1e9, w, design)).toBeGreaterThan(bound * 0.99);
    }
  });

  it('crosses a cached partition once warm containers ÷ TTL × read units passes 3,000', () => {
    // 10,000 containers ÷ 5 s × 10 RRU = 20,000: crossed where 10x / (1 + x / 2,000) = 3,000, x ≈ 353.
    const many = crossings(workload, { ttlSeconds: 5, warmContainers: 10_000 }, limits);
    expect(many.rates.hotPartition).toBeCloseTo(3000 / (10 - (3000 * 5) / 10_000), -1);
    // 1,000 containers ÷ 5 s × 10 RRU = 2,000: never, so the throttles tie first.
    const few = crossings(workload, { ttlSeconds: 5, warmContainers: 1000 }, limits);
    expect(few.rates.hotPartition).toBeNull();
    expect(few.first.sort()).toEqual(['accountApiRate', 'lambdaRps']);
    expect(few.rates.lambdaRps).toBe(1000 * AWS_LIMITS.lambdaRpsPerConcurrency);
  });

  it('counts read units as DynamoDB bills a Query, and one cache key per page a walk reads in the group', () => {
    expect(groupReadItems(10_000, 100, 20, false)).toBe(81);
    expect(groupReadItems(10_000, 100, 20, true)).toBe(101);
    expect(groupReadItems(10, 100, 20, true)).toBe(10);
    expect(groupReadUnits(0, 100, 0, true)).toBe(0.5);
    expect(walkKeys(1000, 100, 20)).toBe(11);
    expect(walkKeys(10, 100, 20)).toBe(1);
  });

  it("reads each key's own items: a walk's last page reads fewer, members owning other counts read other keys", () => {
    // 1,000 plants after 20 own: keys at 0, 80, 180, … 980; the last reads 20 items, the others a whole page.
    const equal = walkKeyReads(1000, 100, [20], 1024);
    expect(equal.map((k) => k.offset)).toEqual([0, ...Array.from({ length: 10 }, (_, i) => 80 + 100 * i)]);
    expect(equal.map((k) => k.rru)).toEqual([...Array(10).fill(13), 2.5]);
    expect(equal.reduce((sum, k) => sum + k.share, 0)).toBeCloseTo(1, 9);
    // Members owning 0 to 99 plants start their group pages at every offset.
    expect(
      walkKeyReads(
        1000,
        100,
        Array.from({ length: 100 }, (_, own) => own),
        'bench',
      ),
    ).toHaveLength(1000);
    expect(readUnitsAt(0, 101, 1024)).toBe(13);
  });

  it('crosses the partition at 3,000 ÷ read units when every request mints a cursor of its own, cache or not', () => {
    const minted = { ...workload, hotReadRru: 13, keys: Number.POSITIVE_INFINITY };
    const c = crossings(minted, { ttlSeconds: 5, warmContainers: 10_000 }, limits);
    expect(c.rates.hotPartition).toBeCloseTo(3000 / 13, 0);
  });
});

describe('the committed reference (lab/results.json)', () => {
  const scale = JSON.parse(readFileSync('results.json', 'utf8')).scale as ScaleResults;

  it('measured read units per group read at the default page for groups of 10, 1,000 and 10,000 plants', () => {
    const atDefault = scale.groupReads.reads.filter((read) => read.pageSize === scale.groupReads.defaultPage);
    expect([...new Set(atDefault.map((read) => read.groupPlants))]).toEqual([10, 1000, 10_000]);
    for (const read of atDefault) expect(read.measuredRru).toBe(read.computedRru);
  });

  it('keeps the hot partition from being the first limit for a company-wide group at the default page', () => {
    const chosen = scale.scenarios.filter((s) => s.design === CHOSEN && s.request === 'first page');
    expect(chosen[0]?.pageSize).toBe(scale.groupReads.defaultPage);
    expect([...new Set(chosen.map((s) => s.quota))]).toEqual(QUOTAS);
    for (const s of chosen) expect(s.crossings.first).not.toContain('hotPartition');
  });
});

const bench = benchRun('bench-scale');
const { outDir } = bench;
afterAll(() => bench.cleanup());

describe('npm run bench:scale -w lab (BENCH_QUICK=1)', () => {
  it("prints the limits, keeps bench's keys of results.json and adds the scale key, and draws scale.svg", async () => {
    // Prepare
    writeFileSync(`${outDir}results.json`, JSON.stringify({ quick: true, readCost: [] }));

    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['scale.ts'], {
      env: { ...process.env, BENCH_QUICK: '1', ...bench.env },
    });

    // Assess
    const results = JSON.parse(readFileSync(`${outDir}results.json`, 'utf8'));
    expect(results).toMatchObject({ quick: true, readCost: [] });
    const scale = results.scale as ScaleResults;
    // Every group read went through the capacity proxy and matched the computation (else the run stops).
    expect(scale.groupReads.reads.length).toBeGreaterThan(0);
    expect(scale.measured.off.rruPerRequest).toBe(scale.measured.ownRru + 2 * scale.measured.groupRru);
    expect(scale.measured.on.rruPerRequest).toBeLessThan(scale.measured.off.rruPerRequest);
    const off = scale.scenarios.find((s) => s.ttlSeconds === 0 && s.request === 'first page');
    // Which limit comes first turns on the duration this machine measured (at load 40, Lambda's
    // concurrency); where the uncached partition is crossed turns only on the read units.
    expect(off?.crossings.rates.hotPartition).toBeGreaterThan(0);
    expect(stdout).toContain('| design | concurrency quota | RRU per group read |');
    expect(readFileSync(`${outDir}scale.svg`, 'utf8')).toMatch(
      /^<svg[\s\S]*3,000 RRU\/s per partition key[\s\S]*<\/svg>\n$/,
    );
  });
});
