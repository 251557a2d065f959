// bench:profile's measurements of one build: warm invocations and cold starts under the inspector's
// sampling profiler, split by stage (cpu-stages.ts); what a cold start reads, by component (esbuild's
// metafile); and, with --instructions, valgrind's instruction counts.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENV } from '../../handlers/lib/environment.ts';
import { settings } from '../config.ts';
import { type Bundle, coldStartOutputs } from '../harness/bundles.ts';
import { runFunction } from '../harness/function-process.ts';
import { median, round } from '../harness/stats.ts';
import {
  type CpuProfile,
  componentOf,
  type Origins,
  STAGES,
  type Stage,
  type StageSplit,
  sourceName,
  splitByStage,
} from './cpu-stages.ts';
import { countInstructions } from './instructions.ts';

export interface ProfileTotals {
  split: StageSplit;
  invocations: number;
  cpuMs: number;
  mainThreadCpuMs: number;
  initCpuMs: number[];
  readyCpuMs: number[];
}

export const emptyTotals = (): { warm: ProfileTotals; cold: ProfileTotals } => {
  const totals = (): ProfileTotals => ({
    split: {
      stages: Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>,
      components: {},
      samples: 0,
    },
    invocations: 0,
    cpuMs: 0,
    mainThreadCpuMs: 0,
    initCpuMs: [],
    readyCpuMs: [],
  });
  return { warm: totals(), cold: totals() };
};

function add(into: StageSplit, split: StageSplit): void {
  for (const stage of STAGES) into.stages[stage] += split.stages[stage];
  for (const [component, samples] of Object.entries(split.components)) {
    into.components[component] = (into.components[component] ?? 0) + samples;
  }
  into.samples += split.samples;
}

const readProfile = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

/** One process: a cold start (profiled from the import to the first response), then profiled warm invocations. */
export async function profileOnce(
  bundle: Bundle,
  env: NodeJS.ProcessEnv,
  event: unknown,
  prefix: string,
  origins: Origins,
  into: { warm: ProfileTotals; cold: ProfileTotals },
): Promise<void> {
  const run = await runFunction({
    bundle: bundle.file,
    env: { ...env, BENCH_CPU_PROFILE: prefix },
    event,
    warmup: settings.profileWarmup,
    invocations: settings.profileInvocations,
  });
  if (run.statusCode !== 200 || run.failures > 0) throw new Error(`${bundle.file} answered ${run.statusCode}`);
  for (const phase of ['init', 'first'])
    add(into.cold.split, splitByStage(readProfile(`${prefix}.${phase}.cpuprofile`), origins));
  into.cold.initCpuMs.push(run.initCpuMs);
  into.cold.readyCpuMs.push(run.readyCpuMs);
  add(into.warm.split, splitByStage(readProfile(`${prefix}.warm.cpuprofile`), origins));
  into.warm.invocations += run.latenciesUs.length;
  into.warm.cpuMs += run.timedCpuMs;
  into.warm.mainThreadCpuMs += run.mainThreadCpuMs;
}

const TOP_COMPONENTS = 12;

/** Each stage's share of the sampled CPU, and its milliseconds at `cpuMs` of the same thread. */
function stagesOf(split: StageSplit, cpuMs: number) {
  return Object.fromEntries(
    STAGES.map((stage) => {
      const share = split.samples === 0 ? 0 : split.stages[stage] / split.samples;
      return [stage, { share: round(share, 4), ms: round(share * cpuMs, 3) }];
    }),
  ) as Record<Stage, { share: number; ms: number }>;
}

const top = (entries: Record<string, number>, total: number) =>
  Object.entries(entries)
    .sort(([, a], [, b]) => b - a)
    .slice(0, TOP_COMPONENTS)
    .map(([name, value]) => ({ name, share: round(value / total, 4) }));

export function summarizeProfile(bundle: Bundle, totals: { warm: ProfileTotals; cold: ProfileTotals }) {
  const { warm, cold } = totals;
  const perRequest = (ms: number) => round(ms / Math.max(warm.invocations, 1), 3);
  const mainThreadMs = perRequest(warm.mainThreadCpuMs);
  const readyCpuMs = round(median(cold.readyCpuMs), 1);
  return {
    bytes: bundle.bytes,
    coldStartBytes: bundle.coldStartBytes,
    warm: {
      invocations: warm.invocations,
      cpuMsPerRequest: perRequest(warm.cpuMs),
      mainThreadCpuMsPerRequest: mainThreadMs,
      samples: warm.split.samples,
      stages: stagesOf(warm.split, mainThreadMs),
      components: top(warm.split.components, warm.split.samples),
    },
    cold: {
      runs: cold.readyCpuMs.length,
      initCpuMs: round(median(cold.initCpuMs), 1),
      readyCpuMs,
      samples: cold.split.samples,
      stages: stagesOf(cold.split, readyCpuMs),
      components: top(cold.split.components, cold.split.samples),
      bytes: coldStartBytesByComponent(bundle),
    },
  };
}

/** What a cold start reads (the entry and its static imports), by component, largest first. */
export function coldStartBytesByComponent(bundle: Bundle) {
  const byComponent: Record<string, number> = {};
  const entry = Object.keys(bundle.metafile.outputs).find((output) => resolve(output) === bundle.file);
  for (const [, output] of coldStartOutputs(bundle.metafile, entry ?? '')) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const component = componentOf(sourceName(resolve(input)));
      byComponent[component] = (byComponent[component] ?? 0) + bytesInOutput;
    }
  }
  return Object.entries(byComponent)
    .sort(([, a], [, b]) => b - a)
    .slice(0, TOP_COMPONENTS)
    .map(([name, bytes]) => ({ name, bytes }));
}

/** --instructions: each run's counts under valgrind. */
export async function instructionsOf(bundle: Bundle, env: NodeJS.ProcessEnv, event: unknown, dir: string) {
  return countInstructions({
    bundle: bundle.file,
    // Timeouts stretched for a process that runs a hundred times slower; nothing else changes.
    env: { ...env, [ENV.dynamodbDeadlineMs]: '60000', [ENV.jwksTimeoutMs]: '30000' },
    event,
    warmup: settings.instructionWarmup,
    invocations: settings.instructionInvocations,
    dir,
  });
}
