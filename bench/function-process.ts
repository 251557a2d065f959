// Runs function-process.mjs in a fresh Node process and returns what it measured.

import { spawn } from 'node:child_process';
import { benchDir } from './config.ts';

export interface FunctionRun {
  /** Node's own start-up, before the bundle is imported. */
  bootMs: number;
  /** Process start until the bundle's module body has run (Lambda's INIT phase). */
  initMs: number;
  /** Process start until the first response is back: the cold start a caller waits for. */
  readyMs: number;
  /** CPU time (user + system, all threads) spent by the process until init ended, and until the first response. */
  initCpuMs: number;
  readyCpuMs: number;
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

export async function runFunction({ bundle, baseline, env, event, warmup = 0, invocations = 0 }: FunctionRunOptions) {
  // The function's log lines are read and dropped, as Lambda's log collection would take them;
  // the measurements come back on file descriptor 3.
  const child = spawn(process.execPath, [`${benchDir}function-process.mjs`], {
    stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
    env: {
      ...env,
      BENCH_BUNDLE: bundle,
      ...(baseline && { BENCH_BASELINE: baseline }),
      BENCH_EVENT: JSON.stringify(event),
      BENCH_WARMUP: String(warmup),
      BENCH_INVOCATIONS: String(invocations),
    },
  });
  child.stdout?.resume();
  let result = '';
  child.stdio[3]?.on('data', (chunk) => {
    result += chunk;
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`function process exited with ${code}`);
  return JSON.parse(result) as FunctionRun;
}
