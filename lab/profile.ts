// `npm run bench:profile -w lab [-- --runs N] [--instructions] [--baseline REF]… [--update-reference]`:
// where the function's CPU goes, stage by stage (token verify, query building, signing, endpoint
// resolution, HTTP, parsing, unmarshalling, middleware, response building), for the production
// build (the SDK), production again (the A-vs-A control) and the hand-written yardstick: warm
// requests and cold starts under the inspector's sampling profiler (N processes per build,
// round-robin), what a cold start reads, and with --instructions valgrind's instruction counts, which
// a busy machine does not move. --baseline REF adds the production build of a git ref (the commit
// before a lever; repeatable). Results: profile.json in lab/out/ (lab/ with --update-reference), and the tables.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CALLER, outDir, settings, tmpDir } from './config.ts';
import { type BuildChange, type Bundle, buildBundle } from './harness/bundles.ts';
import { plantsOf, startEnvironment } from './harness/environment.ts';
import { writeAll } from './harness/seed.ts';
import { Origins } from './measure/cpu-stages.ts';
import { requireValgrind } from './measure/instructions.ts';
import { emptyTotals, instructionsOf, profileOnce, summarizeProfile } from './measure/profile-runs.ts';
import { VARIANTS, YARDSTICK } from './measure/variant-list.ts';
import { type BuildProfile, renderProfile } from './report/profile-report.ts';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
const log = (message: string) =>
  console.error(`[bench:profile ${((performance.now() - started) / 1000).toFixed(0)}s] ${message}`);
mkdirSync(tmpDir, { recursive: true });
mkdirSync(outDir, { recursive: true });
if (settings.instructions) log(await requireValgrind());

/** The production build of a git ref: its handlers/ and scripts/ beside the lab, built with its own options. */
async function baselineBuild(ref: string, n: number): Promise<BuildChange> {
  const dir = `${tmpDir}baseline-${n}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Under lab/, so its imports resolve the same node_modules as the working tree's.
  execFileSync('sh', ['-c', `git archive "$REF" handlers scripts | tar -x -C "$DIR"`], {
    cwd: REPOSITORY,
    env: { ...process.env, REF: ref, DIR: dir },
  });
  if (!existsSync(`${dir}scripts/build.ts`)) throw new Error(`${ref} has no scripts/build.ts`);
  const { buildOptions } = (await import(`${dir}scripts/build.ts`)) as { buildOptions?: (outdir: string) => object };
  if (!buildOptions)
    throw new Error(`${ref}'s scripts/build.ts exports no buildOptions: it predates the lab's own builds`);
  return (production) => buildOptions(production.outdir);
}

log('building production, the hand-written yardstick and any baseline');
const production = await buildBundle('profile-production');
const builds: [string, Bundle][] = [
  ['SDK (production)', production],
  ['control: production again', production],
  ['hand-written', await buildBundle('profile-hand-written', VARIANTS[YARDSTICK]?.build)],
];
for (const [n, ref] of settings.baselines.entries()) {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: REPOSITORY, encoding: 'utf8' }).trim();
  builds.push([`production at ${commit}`, await buildBundle(`profile-baseline-${n}`, await baselineBuild(ref, n))]);
}

const loadAtStart = loadavg()[0] ?? 0;
const env = await startEnvironment();
const origins = new Origins();
try {
  await writeAll(env.dynamo.client, plantsOf(CALLER, settings.callerPlants));
  const functionEnv = env.functionEnv();
  const totals = builds.map(() => emptyTotals());
  for (let round = 0; round < settings.profileRuns; round++) {
    log(`profiling: round ${round + 1} of ${settings.profileRuns}`);
    // Each round starts one build later, so a place in the round favours none.
    for (let k = 0; k < builds.length; k++) {
      const i = (k + round) % builds.length;
      const [, bundle] = builds[i] as [string, Bundle];
      await profileOnce(bundle, functionEnv, env.event, `${tmpDir}profile-${i}`, origins, totals[i] ?? emptyTotals());
    }
  }
  const profiles: BuildProfile[] = builds.map(([name, bundle], i) => ({
    name,
    ...summarizeProfile(bundle, totals[i] ?? emptyTotals()),
  }));
  const results = {
    generatedAt: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown' },
    loadAverage: { start: loadAtStart, end: loadavg()[0] ?? 0 },
    settings: {
      runs: settings.profileRuns,
      warmup: settings.profileWarmup,
      invocations: settings.profileInvocations,
      ...(settings.instructions && {
        instructionRuns: settings.instructionRuns,
        instructionInvocations: settings.instructionInvocations,
      }),
    },
    builds: profiles,
  };
  const write = () => writeFileSync(`${outDir}profile.json`, `${JSON.stringify(results, null, 2)}\n`);
  write();
  if (settings.instructions) {
    for (let run = 0; run < settings.instructionRuns; run++) {
      log(`instructions under valgrind: run ${run + 1} of ${settings.instructionRuns}, every build at once`);
      const counts = await Promise.all(
        builds.map(([, bundle], i) => instructionsOf(bundle, functionEnv, env.event, `${tmpDir}valgrind-${i}`)),
      );
      counts.forEach((count, i) => {
        const profile = profiles[i];
        if (!profile) return;
        profile.instructions ??= { cold: [], perRequest: [] };
        profile.instructions.cold.push(count.cold);
        profile.instructions.perRequest.push(Math.round(count.perRequest));
      });
    }
  }
  results.loadAverage.end = loadavg()[0] ?? 0;
  write();
  console.log(renderProfile(results));
  log(`load average ${loadAtStart.toFixed(1)} at the start, ${results.loadAverage.end.toFixed(1)} at the end`);
} finally {
  await env.stop();
}
