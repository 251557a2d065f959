// `npm run bench:variants -w lab [-- --rtt <ms>] [--only <text>]… [--runs <n>] [--update-reference]`: each cold-start and tail-latency
// lever, measured against the production build in the same run: bundle size, and cold start on
// loopback and over a modelled round trip (10 ms unless --rtt says otherwise), round-robin so
// that drift in the machine's speed touches every variant alike, with the CPU time each cold start
// burns (Lambda bills the INIT phase). Then keep-alive on warm latency (skipped with --only).
// Results go to stdout and variants.json (lab/out/, or lab/ with --update-reference).

import { mkdirSync, writeFileSync } from 'node:fs';
import { jwksOf } from '../local/issuer/issuer.ts';
import { CALLER, outDir, settings, tmpDir } from './config.ts';
import { type Bundle, buildBundle, ENTRIES, withEntry } from './harness/bundles.ts';
import { clearCompileCache, compileCacheEnv, compileCacheSize } from './harness/compile-cache.ts';
import { plantsOf, startDelayedNetwork, startEnvironment } from './harness/environment.ts';
import { runFunction } from './harness/function-process.ts';
import { writeAll } from './harness/seed.ts';
import { percentile } from './harness/stats.ts';
import { UNREACHABLE_JWKS_URI, VARIANTS } from './measure/variant-list.ts';
import { measureWarmVariants } from './measure/variants-warm.ts';
import { type ColdSamples, printCold, printWarm, summarizeCold } from './report/variants-report.ts';

const runs = settings.variantRuns;
const rttMs = settings.rttMs ?? 10;
const chosen = (name: string) =>
  name === 'production' ||
  settings.onlyVariants.length === 0 ||
  settings.onlyVariants.some((text) => name.toLowerCase().includes(text.toLowerCase()));

mkdirSync(tmpDir, { recursive: true });
mkdirSync(outDir, { recursive: true });
const bundles: [string, Bundle][] = [];
for (const [name, variant] of Object.entries(VARIANTS).filter(([name]) => chosen(name))) {
  bundles.push([name, await buildBundle(`variant-${bundles.length}`, variant.build)]);
}
const bare = await buildBundle('variant-bare', withEntry(ENTRIES.bare));

const env = await startEnvironment();
const network = await startDelayedNetwork(env, rttMs);
const { remote } = network;
try {
  await writeAll(env.dynamo.client, plantsOf(CALLER, settings.callerPlants));
  const functionEnvOf = (name: string, bundle: Bundle, where: 'loopback' | 'network') => {
    const variant = VARIANTS[name] ?? {};
    const { nodeOptions, ...options } = variant.env ?? {};
    const functionEnv = env.functionEnv({
      ...options,
      ...(where === 'network' && remote),
      ...(variant.deliveredJwks && { jwksUri: UNREACHABLE_JWKS_URI }),
    });
    if (nodeOptions !== undefined) functionEnv.NODE_OPTIONS = nodeOptions;
    if (variant.compileCache) Object.assign(functionEnv, compileCacheEnv(bundle.file));
    if (variant.deliveredJwks) functionEnv.BENCH_DELIVERED_JWKS = JSON.stringify(jwksOf(...env.issuer.keys));
    return functionEnv;
  };
  // The compile cache as a first cold start of this Node writes it; every measured run reads it.
  const compileCaches = new Map<string, ReturnType<typeof compileCacheSize>>();
  for (const [name, bundle] of bundles.filter(([name]) => VARIANTS[name]?.compileCache)) {
    clearCompileCache(bundle.file);
    await runFunction({ bundle: bundle.file, env: functionEnvOf(name, bundle, 'loopback'), event: env.event });
    const cache = compileCacheSize(bundle.file);
    if (cache.files === 0) throw new Error(`${name}: Node wrote no compile cache`);
    compileCaches.set(name, cache);
  }
  const samples = new Map<string, ColdSamples>(bundles.map(([name]) => [name, { loopback: [], network: [] }]));
  for (let i = -1; i < runs; i++) {
    // Each round starts one variant later: a place in the round (right after production, say) that
    // runs faster or slower would otherwise favour one variant every time (the control showed it).
    const offset = Math.max(i, 0) % bundles.length;
    for (const [name, bundle] of [...bundles.slice(offset), ...bundles.slice(0, offset)]) {
      for (const where of ['loopback', 'network'] as const) {
        const run = await runFunction({
          bundle: bundle.file,
          env: functionEnvOf(name, bundle, where),
          event: env.event,
        });
        if (run.statusCode !== 200) throw new Error(`${name} answered ${run.statusCode} (${where})`);
        const sample = {
          ready: run.readyMs,
          imported: run.initMs - run.bootMs,
          first: run.readyMs - run.initMs,
          cpu: run.readyCpuMs,
          initCpu: run.initCpuMs,
        };
        if (i >= 0) samples.get(name)?.[where].push(sample);
      }
    }
  }
  const cold = summarizeCold(bundles, samples, (name) => {
    const cache = compileCaches.get(name);
    return cache ? { compileCacheBytes: cache.bytes, compileCacheDirectory: cache.tags.join(', ') } : {};
  });

  const [, productionBundle] = bundles[0] ?? [];
  const warmVariants = productionBundle
    ? await measureWarmVariants(
        productionBundle,
        bundles.filter(([name]) => name !== 'production' && VARIANTS[name]?.warm),
        env.functionEnv(),
        env.event,
      )
    : [];

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
  const keepAlive = settings.onlyVariants.length === 0 ? [await warm(true), await warm(false)] : [];

  writeFileSync(
    `${outDir}variants.json`,
    `${JSON.stringify({ runs, rttMs, cold, warm: warmVariants, keepAlive }, null, 2)}\n`,
  );
  printCold(cold, runs, rttMs);
  printWarm(cold, warmVariants, rttMs);
  if (keepAlive.length > 0) console.log('\n| bare Query, warm | p50 | p99 |\n|---|---|---|');
  for (const k of keepAlive)
    console.log(`| keep-alive ${k.keepAlive ? 'on' : 'off'} | ${k.p50Ms} ms | ${k.p99Ms} ms |`);
} finally {
  await network.close();
  await env.stop();
}
