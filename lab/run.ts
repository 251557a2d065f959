// `npm run bench -w lab [-- --rtt <ms>] [--update-reference]`: builds the production bundle and its
// baselines, measures cold start (also over a modelled network with --rtt), warm latency with
// tracing off and on, read cost, memory and the bytes each request logs against real components,
// prices every billed line, and writes results.json and chart.svg to lab/out/ (or the committed
// reference, with --update-reference).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { CALLER, outDir, settings, tmpDir } from './config.ts';
import { billOf } from './cost/bill-of.ts';
import { costOf } from './cost/cost.ts';
import { monthlyCost } from './cost/monthly.ts';
import { buildAll } from './harness/bundles.ts';
import { plantsOf, startEnvironment } from './harness/environment.ts';
import { writeAll } from './harness/seed.ts';
import { histogram, percentile } from './harness/stats.ts';
import { type BilledDuration, billedDuration, measureNetworkDuration } from './measure/billed-duration.ts';
import { measureColdStarts, measureNetworkColdStarts } from './measure/cold-start.ts';
import { measureGroupReadCost } from './measure/group-read-cost.ts';
import { measureLogBytes } from './measure/log-bytes.ts';
import { measureReadCost } from './measure/read-cost.ts';
import { measureWarm, type WarmSummary } from './measure/warm.ts';
import { renderChart } from './report/chart.ts';
import { renderReport } from './report/report.ts';
import { type BenchResults, checkTargets } from './results.ts';

const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const log = (message: string) => console.error(`[bench ${elapsed().toFixed(1)}s] ${message}`);
mkdirSync(tmpDir, { recursive: true });
mkdirSync(outDir, { recursive: true });

log('building the production bundle and the baselines');
const bundles = await buildAll();
const env = await startEnvironment();
try {
  await writeAll(env.dynamo.client, plantsOf(CALLER, settings.callerPlants));
  log(`cold start: ${settings.coldRuns} fresh processes per bundle`);
  const coldStart = await measureColdStarts(env, bundles.handler, bundles.trivial);
  const { rttMs } = settings;
  if (rttMs !== undefined) log(`cold start over a ${rttMs} ms round trip, alternating with loopback`);
  const network = rttMs === undefined ? undefined : await measureNetworkColdStarts(env, bundles.handler, rttMs);
  log(`warm: ${settings.warmInvocations} invocations per function, tracing off then on`);
  const warm = await measureWarm(env, bundles.handler, bundles.bare);
  // What Lambda bills: the mean of each invocation rounded up, over the modelled network when given.
  let duration: BilledDuration;
  if (rttMs === undefined) duration = billedDuration(warm.handler.latenciesUs);
  else {
    log(`warm over a ${rttMs} ms round trip: ${settings.networkInvocations} invocations for the mean billed duration`);
    duration = await measureNetworkDuration(env, bundles.handler, rttMs);
  }
  log(`read cost at ${settings.tableSizes.join(', ')} other users' plants`);
  const readCost = await measureReadCost(env, bundles.handler);
  log(`read cost of one page for a caller in ${settings.groupCounts.join(' or ')} groups`);
  const groupReadCost = await measureGroupReadCost(env, bundles.handler);
  log('log bytes: the bundle as deployed answering a 200, 400, 401 and 503');
  const logs = await measureLogBytes(env, bundles.handler);
  log('monthly items: alarms and dashboard of the synthesized default stack');
  const monthlyUsd = await monthlyCost();

  // Both latency histograms share bins, up to the slower function's p99.5.
  const upperUs = percentile([...warm.handler.latenciesUs, ...warm.bare.latenciesUs], 99.5);
  const warmResult = ({ latenciesUs, ...summary }: WarmSummary) => ({
    ...summary,
    histogram: histogram(latenciesUs, upperUs),
  });
  const { file: _, metafile: __, ...handlerBundle } = bundles.handler;
  const measured = {
    generatedAt: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown' },
    quick: settings.quick,
    bundle: { ...handlerBundle, trivialBytes: bundles.trivial.bytes, bareBytes: bundles.bare.bytes },
    coldStart,
    ...(network && { network }),
    warm: {
      p50Ratio: warm.p50Ratio,
      p99Ratio: warm.p99Ratio,
      handler: warmResult(warm.handler),
      bare: warmResult(warm.bare),
      tracingOn: warm.tracingOn,
    },
    readCost,
    groupReadCost,
    billedDuration: duration,
    peakRssBytes: {
      coldStart: coldStart.handler.maxRssBytes,
      afterWarm: warm.maxRssBytes,
      warmInvocations: settings.warmupInvocations + warm.rssInvocations,
    },
    cost: billOf(
      costOf({
        logs,
        billedDurationMs: duration.meanBilledMs,
        p50Ms: warm.handler.p50Ms,
        tracedP50Ms: warm.tracingOn.handler.p50Ms,
        initMs: coldStart.handler.medianImportMs,
        readUnitsPerRequest: readCost.at(-1)?.queryCapacityUnits ?? Number.NaN,
        maxMemoryUsedMB: Math.round(warm.maxRssBytes / 2 ** 20),
      }),
      monthlyUsd,
      { refusalDurationMs: Math.max(1, Math.ceil(warm.handler.p50Ms)), cpuMs: warm.handler.p50Ms },
    ),
  };
  // bench:scale's key comes from its own run (npm run bench:scale -w lab): kept as it wrote it.
  const file = `${outDir}results.json`;
  const scale: BenchResults['scale'] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).scale : undefined;
  const results: BenchResults = {
    ...measured,
    targets: checkTargets(measured),
    wallSeconds: Math.round(elapsed()),
    ...(scale && { scale }),
  };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${outDir}chart.svg`, renderChart(results));
  console.log(renderReport(results));
  log(`wrote ${outDir}results.json and ${outDir}chart.svg`);
} finally {
  await env.stop();
}
