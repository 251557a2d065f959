// Warm latency: many invocations inside one function process, for the handler and for the bare
// Query baseline, each in its own process so neither's garbage or JIT state touches the other.

import type { Bundle } from './bundles.ts';
import { settings } from './config.ts';
import type { BenchEnvironment } from './environment.ts';
import { runFunction } from './function-process.ts';
import { percentile, round } from './stats.ts';

export interface WarmSummary {
  invocations: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** Peak RSS of the function process after all invocations. */
  maxRssBytes: number;
  latenciesUs: number[];
}

export async function measureWarm(env: BenchEnvironment, handler: Bundle, bare: Bundle) {
  const handlerSummary = await warmRun(env, handler);
  const bareSummary = await warmRun(env, bare);
  return { handler: handlerSummary, bare: bareSummary, p50Ratio: round(handlerSummary.p50Ms / bareSummary.p50Ms) };
}

async function warmRun(env: BenchEnvironment, bundle: Bundle): Promise<WarmSummary> {
  const run = await runFunction({
    bundle: bundle.file,
    env: env.functionEnv(),
    event: env.event,
    warmup: settings.warmupInvocations,
    invocations: settings.warmInvocations,
  });
  if (run.statusCode !== 200 || run.failures > 0) {
    throw new Error(`${bundle.file} answered ${run.statusCode} (${run.failures} failures while warm)`);
  }
  const ms = (p: number) => round(percentile(run.latenciesUs, p) / 1000, 3);
  return {
    invocations: run.latenciesUs.length,
    p50Ms: ms(50),
    p90Ms: ms(90),
    p99Ms: ms(99),
    maxRssBytes: run.maxRssBytes,
    latenciesUs: run.latenciesUs,
  };
}
