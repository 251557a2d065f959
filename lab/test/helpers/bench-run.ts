// Folders of one smoke run of a bench command: its results (BENCH_OUT) and its scratch space
// (BENCH_TMP), each its own, since jest runs two files at once and two runs rebuilding one bundle
// folder break each other. The scratch space stays under lab/, where the bundles resolve
// node_modules as they do in a real run.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_SCRATCH = fileURLToPath(new URL('../../tmp/', import.meta.url));

export interface BenchRun {
  /** Where the run writes results.json and its charts (with a trailing slash). */
  outDir: string;
  /** BENCH_OUT and BENCH_TMP for the run's environment. */
  env: { BENCH_OUT: string; BENCH_TMP: string };
  /** Removes both folders. */
  cleanup(): void;
}

export function benchRun(name: string): BenchRun {
  const outDir = `${mkdtempSync(join(tmpdir(), `${name}-`))}/`;
  mkdirSync(BENCH_SCRATCH, { recursive: true });
  const tmpDir = `${mkdtempSync(join(BENCH_SCRATCH, `${name}-`))}/`;
  return {
    outDir,
    env: { BENCH_OUT: outDir, BENCH_TMP: tmpDir },
    cleanup: () => {
      for (const dir of [outDir, tmpDir]) rmSync(dir, { recursive: true, force: true });
    },
  };
}
