// What Lambda bills for a warm invocation: each one's duration rounded up to the millisecond, and
// the mean of those (a bill sums every invocation; a median hides the slow ones). Measured with
// DynamoDB and the JWKS one modelled round trip away (`--rtt`), as on AWS where every request waits
// for DynamoDB; without `--rtt`, from the loopback run, which understates it.

import { settings } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import { type BenchEnvironment, startDelayedNetwork } from '../harness/environment.ts';
import { runFunction } from '../harness/function-process.ts';
import { withProgress } from '../harness/progress.ts';
import { percentile, round } from '../harness/stats.ts';

export interface BilledDuration {
  /** The modelled round trip; undefined: measured on loopback. */
  rttMs: number | undefined;
  invocations: number;
  meanMs: number;
  p50Ms: number;
  /** Mean of each invocation's duration rounded up to 1 ms: what a million invocations are billed. */
  meanBilledMs: number;
}

/** Summary of warm latencies (µs) as Lambda would bill them. */
export function billedDuration(latenciesUs: readonly number[], rttMs?: number): BilledDuration {
  const ms = latenciesUs.map((us) => us / 1000);
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
  return {
    rttMs,
    invocations: ms.length,
    meanMs: round(mean(ms), 3),
    p50Ms: round(percentile([...latenciesUs], 50) / 1000, 3),
    meanBilledMs: round(mean(ms.map((v) => Math.max(1, Math.ceil(v)))), 3),
  };
}

/** Warm invocations of the handler with every connection through a delaying proxy. */
export async function measureNetworkDuration(
  env: BenchEnvironment,
  handler: Bundle,
  rttMs: number,
): Promise<BilledDuration> {
  const network = await startDelayedNetwork(env, rttMs);
  try {
    const invocations = settings.networkInvocations;
    const warmup = Math.ceil(invocations / 20);
    const run = await withProgress(`warm at ${rttMs} ms RTT`, warmup + invocations, 'invocations', (progress) =>
      runFunction({
        bundle: handler.file,
        env: env.functionEnv(network.remote),
        event: env.event,
        warmup,
        invocations,
        onProgress: progress.increment,
      }),
    );
    if (run.statusCode !== 200 || run.failures > 0) {
      throw new Error(`warm run at ${rttMs} ms RTT answered ${run.statusCode} (${run.failures} failures)`);
    }
    return billedDuration(run.latenciesUs, rttMs);
  } finally {
    await network.close();
  }
}
