// Cold start: fresh processes that import a bundle and serve one request, the handler's runs
// alternating with a baseline's (the trivial handler; the same handler on loopback when a network
// is modelled) so that machine noise falls on both alike.

import { CALLER, settings } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import { type BenchEnvironment, startDelayedNetwork } from '../harness/environment.ts';
import { type FunctionRun, runFunction } from '../harness/function-process.ts';
import { withProgress } from '../harness/progress.ts';
import { median, percentile, round } from '../harness/stats.ts';

export interface ColdStartSummary {
  runs: number;
  /** Process start → first response: Node start-up + module init + first invocation. */
  medianMs: number;
  p90Ms: number;
  /** Module init + first invocation only (process start-up excluded). */
  medianAfterBootMs: number;
  /** Of which: importing the bundle (module init, Lambda's INIT phase), then the first invocation. */
  medianImportMs: number;
  medianFirstRequestMs: number;
  /** Peak RSS of the function process after its first response. */
  maxRssBytes: number;
}

export async function measureColdStarts(env: BenchEnvironment, handler: Bundle, trivial: Bundle) {
  const runs = { handler: [] as FunctionRun[], trivial: [] as FunctionRun[] };
  await withProgress('cold start', (settings.coldRuns + 1) * 2, 'processes', async (progress) => {
    // One unrecorded run each first, so both start with the bundle in the page cache.
    for (let i = -1; i < settings.coldRuns; i++) {
      for (const [name, bundle] of [
        ['handler', handler],
        ['trivial', trivial],
      ] as const) {
        const run = await runFunction({ bundle: bundle.file, env: env.functionEnv(), event: env.event });
        if (run.statusCode !== 200 || (name === 'handler' && run.items !== settings.callerPlants)) {
          throw new Error(`${name} cold start answered ${run.statusCode} with ${run.items} plants for ${CALLER}`);
        }
        if (i >= 0) runs[name].push(run);
        progress.increment();
      }
    }
  });
  const handlerSummary = summarize(runs.handler);
  const trivialSummary = summarize(runs.trivial);
  return {
    handler: handlerSummary,
    trivial: trivialSummary,
    ratio: round(handlerSummary.medianMs / trivialSummary.medianMs),
    ratioAfterBoot: round(handlerSummary.medianAfterBootMs / trivialSummary.medianAfterBootMs),
  };
}

function summarize(runs: FunctionRun[]): ColdStartSummary {
  const ready = runs.map((run) => run.readyMs);
  return {
    runs: runs.length,
    medianMs: round(median(ready), 1),
    p90Ms: round(percentile(ready, 90), 1),
    medianAfterBootMs: round(median(runs.map((run) => run.readyMs - run.bootMs)), 1),
    medianImportMs: round(median(runs.map((run) => run.initMs - run.bootMs)), 1),
    medianFirstRequestMs: round(median(runs.map((run) => run.readyMs - run.initMs)), 1),
    maxRssBytes: Math.max(...runs.map((run) => run.maxRssBytes)),
  };
}

export interface NetworkSummary {
  rttMs: number;
  /** Cold starts with the JWKS and DynamoDB one modelled round trip away. */
  handler: ColdStartSummary;
  /** The same function's cold start on loopback, interleaved with the runs above. */
  loopbackHandlerMedianMs: number;
  loopback: ColdStartSummary;
}

/**
 * Cold starts with every connection to the JWKS and to DynamoDB through a delaying proxy (each
 * round trip costs `rttMs`), alternating with cold starts that reach them on loopback.
 */
export async function measureNetworkColdStarts(
  env: BenchEnvironment,
  handler: Bundle,
  rttMs: number,
): Promise<NetworkSummary> {
  const network = await startDelayedNetwork(env, rttMs);
  const envs = {
    network: env.functionEnv(network.remote),
    loopback: env.functionEnv(),
  };
  const runs = { network: [] as FunctionRun[], loopback: [] as FunctionRun[] };
  try {
    await withProgress(`cold start at ${rttMs} ms RTT`, (settings.coldRuns + 1) * 2, 'processes', async (progress) => {
      for (let i = -1; i < settings.coldRuns; i++) {
        for (const name of ['network', 'loopback'] as const) {
          const run = await runFunction({ bundle: handler.file, env: envs[name], event: env.event });
          if (run.statusCode !== 200 || run.items !== settings.callerPlants) {
            throw new Error(`${name} cold start answered ${run.statusCode} with ${run.items} plants`);
          }
          if (i >= 0) runs[name].push(run);
          progress.increment();
        }
      }
    });
  } finally {
    await network.close();
  }
  const loopback = summarize(runs.loopback);
  return { rttMs, handler: summarize(runs.network), loopbackHandlerMedianMs: loopback.medianMs, loopback };
}
