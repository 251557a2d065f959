// Runs function-process.mjs in a fresh Node process and returns what it measured.

import { spawn } from 'node:child_process';
import { benchDir } from '../config.ts';

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
  /** CPU time (all threads) during the timed invocations of the function, and of the baseline's. */
  timedCpuMs: number;
  baselineTimedCpuMs: number;
  /** CPU time of the main thread alone (where the function's JavaScript runs) during the timed invocations, the baseline's included. */
  mainThreadCpuMs: number;
  failures: number;
  maxRssBytes: number;
  /** With `logEvents`: the lines written at the cold start, and by each named event's warm invocation. */
  logs?: {
    cold: string[];
    events: Record<
      string,
      { lines: string[]; response: { statusCode: number; headers?: Record<string, string>; body: string } }
    >;
  };
}

export interface FunctionRunOptions {
  bundle: string;
  /** A second bundle whose invocations alternate with the first's. */
  baseline?: string;
  env: NodeJS.ProcessEnv;
  event: unknown;
  warmup?: number;
  invocations?: number;
  /** Called with the rounds done since the last call (reported between rounds, outside any timing). */
  onProgress?: (rounds: number) => void;
  /** Events (by name) whose log lines are kept: each is invoked twice and the second, warm, is kept. */
  logEvents?: Record<string, unknown>;
}

export async function runFunction(options: FunctionRunOptions): Promise<FunctionRun> {
  const { bundle, baseline, env, event, warmup = 0, invocations = 0, onProgress, logEvents } = options;
  // The function's log lines are read and dropped, as Lambda's log collection would take them;
  // the measurements come back on file descriptor 3.
  const child = spawn(process.execPath, [`${benchDir}harness/function-process.mjs`], {
    stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
    env: {
      ...env,
      BENCH_BUNDLE: bundle,
      ...(baseline && { BENCH_BASELINE: baseline }),
      BENCH_EVENT: JSON.stringify(event),
      BENCH_WARMUP: String(warmup),
      BENCH_INVOCATIONS: String(invocations),
      ...(onProgress && { BENCH_PROGRESS_EVERY: String(PROGRESS_EVERY) }),
      ...(logEvents && { BENCH_LOG_EVENTS: JSON.stringify(logEvents) }),
    },
  });
  child.stdout?.resume();
  // Lines on fd 3: `progress <rounds>` while it runs, then the result.
  let pending = '';
  let result = '';
  child.stdio[3]?.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('progress ')) onProgress?.(Number(line.slice('progress '.length)));
      else result += line;
    }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`function process exited with ${code}`);
  return JSON.parse(result + pending) as FunctionRun;
}

/** Rounds between two progress lines of a function process: a write every few hundred milliseconds. */
const PROGRESS_EVERY = 250;
