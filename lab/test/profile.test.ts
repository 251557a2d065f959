// Smoke test of `npm run bench:profile -w lab`: each build profiled warm and cold, every sample given
// a stage, the SDK's HTTP handler found in production's requests and not in the hand-written client's.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { STAGES } from '../measure/cpu-stages.ts';
import type { ProfileResults } from '../report/profile-report.ts';
import { benchRun } from './helpers/bench-run.ts';

const bench = benchRun('bench-profile');
afterAll(() => bench.cleanup());

describe('npm run bench:profile -w lab -- --runs 1 (BENCH_QUICK=1)', () => {
  it('splits warm requests and cold starts by stage for production, its control and the hand-written client', async () => {
    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['profile.ts', '--runs', '1'], {
      env: { ...process.env, BENCH_QUICK: '1', ...bench.env },
    });

    // Assess
    const results = JSON.parse(readFileSync(`${bench.outDir}profile.json`, 'utf8')) as ProfileResults;
    expect(results.builds.map((b) => b.name)).toEqual([
      'SDK (production)',
      'control: production again',
      'hand-written',
    ]);
    for (const build of results.builds) {
      for (const phase of [build.warm, build.cold]) {
        const shares = STAGES.reduce((sum, stage) => sum + phase.stages[stage].share, 0);
        expect(shares).toBeCloseTo(1, 2);
      }
      expect(build.warm.stages['loading the bundle (read, compile, run its top level)'].share).toBe(0);
      expect(build.cold.stages['loading the bundle (read, compile, run its top level)'].share).toBeGreaterThan(0);
      expect(build.cold.bytes[0]?.bytes).toBeGreaterThan(0);
    }
    const [production, , handWritten] = results.builds;
    const components = (b: typeof production) => b?.warm.components.map((c) => c.name).join(' ') ?? '';
    expect(components(production)).toMatch(/@smithy\/node-http-handler/);
    expect(components(handWritten)).toMatch(/lab\/entries\/hand-written\//);
    expect(components(handWritten)).not.toMatch(/@smithy\/node-http-handler/);
    expect(production?.coldStartBytes).toBeGreaterThan(handWritten?.coldStartBytes ?? Number.POSITIVE_INFINITY);
    expect(stdout).toContain('| warm request, main thread | SDK (production) |');
  }, 180_000);
});
