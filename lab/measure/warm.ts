// Warm latency: many invocations in one function process that alternates between the handler and
// the bare Query baseline, so neither gains from running later (dynalite's JIT warms up too); then
// the same with tracing on, as on Lambda with active tracing. Peak RSS comes from a second process
// that runs the handler alone (a quarter as many invocations, to keep the run within minutes).

import { settings } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import type { BenchEnvironment } from '../harness/environment.ts';
import { runFunction } from '../harness/function-process.ts';
import { withProgress } from '../harness/progress.ts';
import { percentile, round } from '../harness/stats.ts';

export interface WarmSummary {
  invocations: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  latenciesUs: number[];
}

export async function measureWarm(env: BenchEnvironment, handler: Bundle, bare: Bundle) {
  const counts = { warmup: settings.warmupInvocations, invocations: settings.warmInvocations };
  // Rounds of the three function processes below: in each, the handler's invocation (and the baseline's).
  const rounds = counts.warmup * 3 + counts.invocations * 2 + rssInvocations();
  const [mixed, alone, traced] = await withProgress('warm', rounds, 'rounds', async (progress) => {
    const base = { env: env.functionEnv(), event: env.event, ...counts, onProgress: progress.increment };
    return [
      await runFunction({ ...base, bundle: handler.file, baseline: bare.file }),
      await runFunction({ ...base, invocations: rssInvocations(), bundle: handler.file }),
      // As on Lambda with active tracing: the Tracer loaded, a segment per invocation sent over UDP.
      await runFunction({
        ...base,
        env: env.functionEnv({ tracing: true }),
        bundle: handler.file,
        baseline: bare.file,
      }),
    ];
  });
  for (const run of [mixed, alone, traced]) {
    if (run.statusCode !== 200 || run.failures > 0) {
      throw new Error(`warm run answered ${run.statusCode} (${run.failures} failures while warm)`);
    }
  }
  const handlerSummary = summarize(mixed.latenciesUs);
  const bareSummary = summarize(mixed.baselineLatenciesUs);
  const { latenciesUs: _, ...tracedHandler } = summarize(traced.latenciesUs);
  const { latenciesUs: __, ...tracedBare } = summarize(traced.baselineLatenciesUs);
  return {
    handler: handlerSummary,
    bare: bareSummary,
    p50Ratio: round(handlerSummary.p50Ms / bareSummary.p50Ms),
    p99Ratio: round(handlerSummary.p99Ms / bareSummary.p99Ms),
    /**
     * The same alternation with tracing on. The bare Query is not traced, but X-Ray's async-hooks
     * hook is process-wide and slows it too: the tracing tax is the handler's p99 against its own
     * p99 with tracing off.
     */
    tracingOn: {
      handler: tracedHandler,
      bare: tracedBare,
      p50Ratio: round(tracedHandler.p50Ms / tracedBare.p50Ms),
      p99Ratio: round(tracedHandler.p99Ms / tracedBare.p99Ms),
      p99VsTracingOff: round(tracedHandler.p99Ms / handlerSummary.p99Ms),
    },
    /** Peak RSS of a function process that served only the handler, warm-up and `rssInvocations`. */
    maxRssBytes: alone.maxRssBytes,
    rssInvocations: rssInvocations(),
  };
}

const rssInvocations = () => Math.ceil(settings.warmInvocations / 4);

function summarize(latenciesUs: number[]): WarmSummary {
  const ms = (p: number) => round(percentile(latenciesUs, p) / 1000, 3);
  return { invocations: latenciesUs.length, p50Ms: ms(50), p90Ms: ms(90), p99Ms: ms(99), latenciesUs };
}
