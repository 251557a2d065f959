// Runs function-process.mjs in a fresh Node process and returns what it measured.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { benchDir } from './config.ts';

export interface FunctionRun {
  /** Node's own start-up, before the bundle is imported. */
  bootMs: number;
  /** Process start until the bundle's module body has run (Lambda's INIT phase). */
  initMs: number;
  /** Process start until the first response is back: the cold start a caller waits for. */
  readyMs: number;
  statusCode: number;
  items: number;
  latenciesUs: number[];
  /** The baseline's latencies, when one was interleaved. */
  baselineLatenciesUs: number[];
  failures: number;
  maxRssBytes: number;
}

export interface FunctionRunOptions {
  bundle: string;
  /** A second bundle whose invocations alternate with the first's. */
  baseline?: string;
  env: NodeJS.ProcessEnv;
  event: unknown;
  warmup?: number;
  invocations?: number;
}

const run = promisify(execFile);

export async function runFunction({ bundle, baseline, env, event, warmup = 0, invocations = 0 }: FunctionRunOptions) {
  const { stdout } = await run(process.execPath, [`${benchDir}function-process.mjs`], {
    env: {
      ...env,
      BENCH_BUNDLE: bundle,
      ...(baseline && { BENCH_BASELINE: baseline }),
      BENCH_EVENT: JSON.stringify(event),
      BENCH_WARMUP: String(warmup),
      BENCH_INVOCATIONS: String(invocations),
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as FunctionRun;
}
