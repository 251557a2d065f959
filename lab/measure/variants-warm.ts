// bench:variants' warm figures for the variants that change the request path (the DynamoDB clients,
// and production against itself as the control). Each round runs one fresh function process per
// variant that alternates invocations of the variant and of production, so that both see the same
// moment of a shared, noisy machine: the p99s compare pair by pair. CPU per request is the process's
// CPU time (all threads) while each function's timed invocations ran.

import { settings } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import { runFunction } from '../harness/function-process.ts';
import { percentile, round } from '../harness/stats.ts';

interface Figures {
  invocations: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
}

export interface WarmVariant extends Figures {
  name: string;
  /** Production's invocations alternating with this variant's, in the same processes. */
  production: Figures;
}

const figures = (latenciesUs: number[], cpuMs: number): Figures => ({
  invocations: latenciesUs.length,
  p50Ms: round(percentile(latenciesUs, 50) / 1000, 3),
  p99Ms: round(percentile(latenciesUs, 99) / 1000, 3),
  cpuMsPerRequest: round(cpuMs / latenciesUs.length, 3),
});

export async function measureWarmVariants(
  production: Bundle,
  variants: [string, Bundle][],
  env: NodeJS.ProcessEnv,
  event: unknown,
): Promise<WarmVariant[]> {
  const empty = () => ({ latenciesUs: [] as number[], cpuMs: 0 });
  const samples = new Map(variants.map(([name]) => [name, { variant: empty(), production: empty() }]));
  for (let i = 0; i < settings.variantWarmRounds; i++) {
    for (const [name, bundle] of variants) {
      const run = await runFunction({
        bundle: bundle.file,
        baseline: production.file,
        env,
        event,
        warmup: settings.warmupInvocations,
        invocations: settings.variantWarmInvocations,
      });
      if (run.statusCode !== 200 || run.failures > 0) {
        throw new Error(`${name} answered ${run.statusCode} warm (${run.failures} failures, production's included)`);
      }
      const s = samples.get(name);
      s?.variant.latenciesUs.push(...run.latenciesUs);
      s?.production.latenciesUs.push(...run.baselineLatenciesUs);
      if (s) s.variant.cpuMs += run.timedCpuMs;
      if (s) s.production.cpuMs += run.baselineTimedCpuMs;
    }
  }
  return variants.map(([name]) => {
    const s = samples.get(name) ?? { variant: empty(), production: empty() };
    return {
      name,
      ...figures(s.variant.latenciesUs, s.variant.cpuMs),
      production: figures(s.production.latenciesUs, s.production.cpuMs),
    };
  });
}
