// Benchmark sizes and paths. BENCH_QUICK=1 shrinks every count so a smoke test runs in seconds.

import { fileURLToPath } from 'node:url';

const quick = process.env.BENCH_QUICK === '1';

export const benchDir = fileURLToPath(new URL('.', import.meta.url));
/** Scratch space (bundles, the issuer's certificate): git-ignored, rebuilt on every run. */
export const tmpDir = `${benchDir}tmp/`;
/** Where results.json and chart.svg go; the smoke test points this elsewhere. */
export const outDir = process.env.BENCH_OUT ?? benchDir;

export const settings = {
  quick,
  /** Fresh processes per bundle for the cold-start medians. */
  coldRuns: quick ? 2 : 21,
  /** Timed in-process invocations per function, after `warmupInvocations` untimed ones. */
  warmInvocations: quick ? 50 : 10_000,
  warmupInvocations: quick ? 10 : 1_000,
  /** The caller's own plants. */
  callerPlants: 100,
  /** Other users' plants in the table for each read-cost measurement, ascending. */
  tableSizes: quick ? [0, 250] : [0, 10_000, 100_000],
  /** Plants per other user. */
  plantsPerOtherUser: 100,
  /** Concurrent BatchWriteItem calls while seeding. */
  writeConcurrency: 8,
};

export const TABLE = 'plants-bench';
export const AUDIENCE = 'plant-store-bench';
export const CALLER = 'bench-caller';
