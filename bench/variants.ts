// `npm run bench:variants`: the build choices behind scripts/build.ts, each measured against the
// production build in the same run (bundle size, cold start), plus keep-alive on warm latency.
// Results go to stdout and bench/variants.json; docs/performance.md quotes them.

import { mkdirSync, writeFileSync } from 'node:fs';
import type { BuildOptions } from 'esbuild';
import { requireBuiltins } from '../scripts/require-builtins.ts';
import { type Bundle, buildBundle, ENTRIES } from './bundles.ts';
import { CALLER, outDir, settings, tmpDir } from './config.ts';
import { plantsOf, startEnvironment } from './environment.ts';
import { runFunction } from './function-process.ts';
import { writeAll } from './seed.ts';
import { median, percentile, round } from './stats.ts';
import { stubPackages } from './stub-packages.ts';

const VARIANTS: Record<string, BuildOptions> = {
  'before: CommonJS SDK (default mainFields), built-ins imported': {
    mainFields: ['main', 'module'],
    plugins: [],
  },
  '+ ES-module SDK (mainFields module)': { plugins: [] },
  'production: + built-ins required (require-builtins plugin)': {},
  'production + code splitting': { splitting: true },
  'production, not minified': { minify: false },
  'production as CommonJS': {
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    banner: {},
  },
  'production, SDK external (runtime-provided)': { external: ['@aws-sdk/*'] },
  // What Powertools costs: the same build with its packages replaced by do-nothing stubs.
  'production without Powertools Tracer': {
    plugins: [requireBuiltins, stubPackages(['@aws-lambda-powertools/tracer'])],
  },
  'production without Powertools (logger, metrics, tracer)': {
    plugins: [
      requireBuiltins,
      stubPackages([
        '@aws-lambda-powertools/logger',
        '@aws-lambda-powertools/metrics',
        '@aws-lambda-powertools/tracer',
      ]),
    ],
  },
};
const runs = settings.quick ? 2 : 15;

mkdirSync(tmpDir, { recursive: true });
const bundles: [string, Bundle][] = [];
for (const [name, overrides] of Object.entries(VARIANTS)) {
  bundles.push([name, await buildBundle(`variant-${bundles.length}`, { overrides })]);
}
bundles.push(['trivial handler', await buildBundle('variant-trivial', { entry: ENTRIES.trivial })]);
const bare = await buildBundle('variant-bare', { entry: ENTRIES.bare });

const env = await startEnvironment();
try {
  await writeAll(env.dynamo.client, plantsOf(CALLER, settings.callerPlants));
  // Round-robin over the variants, so that drift in the machine's speed touches all of them.
  const samples = new Map(bundles.map(([name]) => [name, [] as { ready: number; imported: number }[]]));
  for (let i = -1; i < runs; i++) {
    for (const [name, bundle] of bundles) {
      const run = await runFunction({ bundle: bundle.file, env: env.functionEnv(), event: env.event });
      if (run.statusCode !== 200) throw new Error(`${name} answered ${run.statusCode}`);
      if (i >= 0) samples.get(name)?.push({ ready: run.readyMs, imported: run.initMs - run.bootMs });
    }
  }
  const cold = bundles.map(([name, bundle]) => {
    const s = samples.get(name) ?? [];
    return {
      name,
      bytes: bundle.bytes,
      coldStartMedianMs: round(median(s.map((x) => x.ready)), 1),
      importMedianMs: round(median(s.map((x) => x.imported)), 1),
    };
  });

  const warm = async (keepAlive: boolean) => {
    const run = await runFunction({
      bundle: bare.file,
      env: { ...env.functionEnv(), BENCH_KEEP_ALIVE: keepAlive ? '1' : '0' },
      event: env.event,
      warmup: settings.warmupInvocations,
      invocations: Math.min(settings.warmInvocations, 3000),
    });
    return { keepAlive, p50Ms: percentile(run.latenciesUs, 50) / 1000, p99Ms: percentile(run.latenciesUs, 99) / 1000 };
  };
  const keepAlive = [await warm(true), await warm(false)];

  writeFileSync(`${outDir}variants.json`, `${JSON.stringify({ runs, cold, keepAlive }, null, 2)}\n`);
  console.log(`| build variant | bundle | cold start, median of ${runs} | of which import |\n|---|---|---|---|`);
  for (const v of cold) {
    console.log(
      `| ${v.name} | ${(v.bytes / 1000).toFixed(0)} KB | ${v.coldStartMedianMs} ms | ${v.importMedianMs} ms |`,
    );
  }
  console.log('\n| bare Query, warm | p50 | p99 |\n|---|---|---|');
  for (const k of keepAlive)
    console.log(`| keep-alive ${k.keepAlive ? 'on' : 'off'} | ${k.p50Ms} ms | ${k.p99Ms} ms |`);
} finally {
  await env.stop();
}
