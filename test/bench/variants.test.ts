// Smoke test of `npm run bench:variants`: the levers it measures still build, answer and write
// their figures (a lever whose stand-in stopped applying fails the run instead of timing production).

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { benchRun } from '../helpers/bench-run.ts';

const bench = benchRun('bench-variants');
const { outDir } = bench;
afterAll(() => bench.cleanup());

interface Medians {
  coldStartMedianMs: number;
  cpuMedianMs: number;
  initCpuMedianMs: number;
}
interface ColdVariant {
  name: string;
  compileCacheBytes?: number;
  compileCacheDirectory?: string;
  loopback: Medians;
  network: Medians;
}

describe('npm run bench:variants -- --only … (BENCH_QUICK=1)', () => {
  it('measures the chosen levers beside production, with CPU time and the compile cache written by this Node', async () => {
    // Prepare
    const run = promisify(execFile);
    const args = ['--only', 'compile cache', '--only', 'JWKS delivered', '--runs', '1'];

    // Act
    const { stdout } = await run(process.execPath, ['bench/variants.ts', ...args], {
      env: { ...process.env, BENCH_QUICK: '1', ...bench.env },
    });

    // Assess
    const { runs, cold, keepAlive } = JSON.parse(readFileSync(`${outDir}variants.json`, 'utf8')) as {
      runs: number;
      cold: ColdVariant[];
      keepAlive: unknown[];
    };
    expect(runs).toBe(1);
    expect(cold.map((variant) => variant.name.split(' (')[0])).toEqual([
      'production',
      'V8 compile cache beside the bundle, written by this same Node',
      'JWKS delivered with the deployment',
    ]);
    // Node files its cache under the exact runtime that wrote it: version, arch, V8 tag, uid.
    const [major, minor, patch] = process.versions.node.split('.');
    expect(cold[1]?.compileCacheDirectory).toMatch(
      new RegExp(`^v${major}\\.${minor}\\.${patch}-${process.arch}-[0-9a-f]{8}-\\d+$`),
    );
    expect(cold[1]?.compileCacheBytes).toBeGreaterThan(0);
    for (const variant of cold) {
      expect(variant.loopback.cpuMedianMs).toBeGreaterThanOrEqual(variant.loopback.initCpuMedianMs);
      expect(variant.network.coldStartMedianMs).toBeGreaterThan(0);
    }
    expect(keepAlive).toEqual([]);
    expect(stdout).toContain('| JWKS delivered with the deployment');
  }, 120_000);
});
