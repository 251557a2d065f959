// Smoke test of `npm run bench:variants -w lab`: the levers it measures still build, answer and write
// their figures (a lever whose stand-in stopped applying fails the run instead of timing production).

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { benchRun } from './helpers/bench-run.ts';

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
  bytes: number;
  coldStartBytes: number;
  compileCacheBytes?: number;
  compileCacheDirectory?: string;
  loopback: Medians;
  network: Medians;
}

describe('npm run bench:variants -w lab -- --only … (BENCH_QUICK=1)', () => {
  it('measures the chosen levers beside production, with CPU time and the compile cache written by this Node', async () => {
    // Prepare
    const run = promisify(execFile);
    const args = ['--only', 'compile cache', '--only', 'JWKS delivered', '--runs', '1'];

    // Act
    const { stdout } = await run(process.execPath, ['variants.ts', ...args], {
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
  });

  it('measures each DynamoDB client behind the same handler: bundle, cold start, warm latency and CPU per request', async () => {
    // Prepare
    const run = promisify(execFile);
    const clientsOut = `${outDir}clients/`;

    // Act: the bench itself fails when a variant answers anything but 200 with the caller's plants.
    const { stdout } = await run(process.execPath, ['variants.ts', '--only', 'DynamoDB client', '--runs', '1'], {
      env: { ...process.env, BENCH_QUICK: '1', BENCH_OUT: clientsOut },
    });

    // Assess
    const { cold, warm } = JSON.parse(readFileSync(`${clientsOut}variants.json`, 'utf8')) as {
      cold: ColdVariant[];
      warm: { name: string; invocations: number; cpuMsPerRequest: number; production: { invocations: number } }[];
    };
    const [production, ...clients] = cold;
    expect(clients.map((variant) => variant.name.split(':')[0])).toEqual(['DynamoDB client', 'DynamoDB client']);
    // A stand-in that stopped replacing handlers/lib/dynamodb-client.ts would time production again.
    for (const client of clients) expect(client.bytes).not.toBe(production?.bytes);
    // Warm: each client alternating with production in the same processes, invocation for invocation.
    expect(warm.map((variant) => variant.name)).toEqual(clients.map((variant) => variant.name));
    for (const variant of warm) {
      expect(variant.invocations).toBeGreaterThan(0);
      expect(variant.production.invocations).toBe(variant.invocations);
      expect(variant.cpuMsPerRequest).toBeGreaterThan(0);
    }
    expect(stdout).toContain('production ≤ 1.1× its start → first response, p99');
  });
});
