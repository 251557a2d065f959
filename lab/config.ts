// Benchmark sizes, paths and flags. BENCH_QUICK=1 shrinks every count so a smoke test runs in
// seconds. Flags: `--rtt <ms>` adds the run over a modelled network; `--update-reference` writes
// the committed reference (lab/results.json, chart.svg, variants.json) instead of lab/out/;
// bench:variants also takes `--only <text>` (repeatable: the variants whose name contains it, with
// production) and `--runs <n>` (cold starts per variant and network, 15 by default); bench:profile
// takes `--runs <n>`, `--instructions` and `--baseline <git ref>`.

import { fileURLToPath } from 'node:url';
import { UsageError } from '../local/cli/args.ts';
import { runCli } from '../local/cli/shell.ts';

const USAGE = `Usage: npm run bench -w lab [-- --rtt MS] [--update-reference]
       npm run bench:variants -w lab [-- --only TEXT ...] [--runs N] [--rtt MS] [--update-reference]
       npm run bench:scale -w lab [-- --update-reference]
       npm run bench:profile -w lab [-- --runs N] [--instructions] [--baseline REF ...] [--update-reference]

  --rtt MS              also measure over a modelled network: MS milliseconds of round trip to the
                        JWKS and DynamoDB, TLS in front (1 to 1000)
  --update-reference    write the committed reference (lab/results.json, the charts,
                        lab/variants.json, lab/profile.json) instead of lab/out/
  --only TEXT           bench:variants: only the variants whose name contains TEXT (repeatable;
                        production always runs)
  --runs N              bench:variants: cold starts per variant and network (1 to 1000, default 15);
                        bench:profile: profiled processes per build, warm and cold (default 5)
  --instructions        bench:profile: also count instructions under valgrind (a few minutes a build)
  --baseline REF        bench:profile: also profile the production build of git REF (a commit
                        before a lever), beside the working tree's (repeatable)

BENCH_QUICK=1 shrinks every count to a smoke run.`;

const quick = process.env.BENCH_QUICK === '1';
// Every bench command reads its flags here, through the CLIs' one shell: --help, a mistake in one line.
const { flags, rttMs, variantRuns } = await runCli(
  {
    usage: USAGE,
    options: {
      rtt: { type: 'string' },
      'update-reference': { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      runs: { type: 'string' },
      instructions: { type: 'boolean', default: false },
      baseline: { type: 'string', multiple: true },
    },
    positionals: false,
  },
  ({ values: flags }) => {
    const rttMs = flags.rtt === undefined ? undefined : Number(flags.rtt);
    if (rttMs !== undefined && !(rttMs > 0 && rttMs <= 1000)) {
      throw new UsageError(`--rtt takes a round-trip time in milliseconds (1 to 1000), got "${flags.rtt}"`);
    }
    const variantRuns = flags.runs === undefined ? undefined : Number(flags.runs);
    if (variantRuns !== undefined && !(Number.isInteger(variantRuns) && variantRuns >= 1 && variantRuns <= 1000)) {
      throw new UsageError(`--runs takes a number of cold starts (1 to 1000), got "${flags.runs}"`);
    }
    return { flags, rttMs, variantRuns };
  },
);

export const benchDir = fileURLToPath(new URL('.', import.meta.url));
/**
 * Scratch space (bundles, the issuer's certificate): git-ignored, rebuilt on every run. The smoke
 * tests give each run its own (BENCH_TMP), since two runs rebuilding one folder break each other.
 */
export const tmpDir = process.env.BENCH_TMP ?? `${benchDir}tmp/`;
/**
 * Where results go: lab/out/ (git-ignored) unless `--update-reference` asks for the committed
 * reference files; the smoke test points BENCH_OUT elsewhere.
 */
export const outDir = process.env.BENCH_OUT ?? (flags['update-reference'] ? benchDir : `${benchDir}out/`);

export const settings = {
  quick,
  /** The modelled round-trip time to the JWKS and DynamoDB, when `--rtt` is given. */
  rttMs,
  /** bench:variants: cold starts per variant on loopback and over the modelled network. */
  variantRuns: variantRuns ?? (quick ? 2 : 15),
  /** bench:variants: rounds of warm processes per variant that changes the request path, and timed invocations in each. */
  variantWarmRounds: quick ? 1 : 4,
  variantWarmInvocations: quick ? 20 : 1_500,
  /** bench:profile: profiled processes per build, warm and cold; warm invocations before and under the profiler. */
  profileRuns: variantRuns ?? (quick ? 1 : 5),
  profileWarmup: quick ? 10 : 300,
  profileInvocations: quick ? 20 : 1_000,
  /** bench:profile --instructions: runs per build under valgrind, and their uncounted and counted warm invocations. */
  instructions: flags.instructions,
  instructionRuns: quick ? 1 : 2,
  instructionWarmup: quick ? 5 : 200,
  instructionInvocations: quick ? 5 : 200,
  /** bench:profile --baseline (repeatable): git refs whose production builds are profiled beside the working tree's. */
  baselines: flags.baseline ?? [],
  /** bench:variants: only the variants whose name contains one of these (production always runs). */
  onlyVariants: flags.only ?? [],
  /** Fresh processes per bundle for the cold-start medians. */
  coldRuns: quick ? 2 : 21,
  /** Invocations timed over the modelled network (`--rtt`) for the mean billed duration. */
  networkInvocations: quick ? 30 : 1_000,
  /** Timed in-process invocations per function, after `warmupInvocations` untimed ones. */
  warmInvocations: quick ? 50 : 10_000,
  warmupInvocations: quick ? 10 : 1_000,
  /** The caller's own plants. */
  callerPlants: 100,
  /** Other users' plants in the table for each read-cost measurement, ascending. */
  tableSizes: quick ? [0, 250] : [0, 10_000, 100_000],
  /** Plants per other user. */
  plantsPerOtherUser: 100,
  /** Groups the caller's token names, for the many-groups read cost; and each group's plants. */
  groupCounts: quick ? [1, 20] : [1, 100],
  plantsPerGroup: 10,
  /** Page sizes asked for in the many-groups read cost. */
  groupPageLimits: [100, 1000],
  /** bench:scale: untimed and timed invocations per warm function process, cache off and on. */
  scaleWarmup: quick ? 10 : 300,
  scaleInvocations: quick ? 40 : 2000,
  /** Concurrent BatchWriteItem calls while seeding. */
  writeConcurrency: 8,
};

export const TABLE = 'plants-bench';
export const AUDIENCE = 'plant-store-bench';
export { CALLER, otherUser } from './harness/shapes.ts';
