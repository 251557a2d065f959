// The markdown report printed on stdout (and pasted into docs/performance.md).

import type { BenchResults } from './results.ts';

const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} KB`;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`;
const usd = (value: number) => `$${value.toFixed(4)}`;

export function renderReport(r: BenchResults): string {
  const { coldStart: cold, warm, costPerMillion: cost } = r;
  const lines = [
    `| measure | plant store handler | baseline | ratio |`,
    `|---|---|---|---|`,
    `| bundle (minified, SDK included, all chunks) | ${kb(r.bundle.bytes)} (${kb(r.bundle.gzipBytes)} gzip; ${kb(r.bundle.coldStartBytes)} read at a cold start) | trivial ${kb(r.bundle.trivialBytes)} | |`,
    `| cold start, median (p90), ${cold.handler.runs} runs | ${cold.handler.medianMs} ms (${cold.handler.p90Ms}) | trivial ${cold.trivial.medianMs} ms (${cold.trivial.p90Ms}) | ${cold.ratio}× |`,
    // A difference, not a ratio: the trivial handler does next to nothing after Node starts, so any
    // real function is a three-digit multiple of it, which says nothing.
    `| cold start after Node start-up, median | ${cold.handler.medianAfterBootMs} ms | trivial ${cold.trivial.medianAfterBootMs} ms | +${(cold.handler.medianAfterBootMs - cold.trivial.medianAfterBootMs).toFixed(1)} ms |`,
    `| … of which import (init) / first request | ${cold.handler.medianImportMs} / ${cold.handler.medianFirstRequestMs} ms | trivial ${cold.trivial.medianImportMs} / ${cold.trivial.medianFirstRequestMs} ms | |`,
    ...networkRows(r),
    `| warm p50 / p99, ${warm.handler.invocations} invocations | ${warm.handler.p50Ms} / ${warm.handler.p99Ms} ms | bare Query ${warm.bare.p50Ms} / ${warm.bare.p99Ms} ms | ${warm.p50Ratio}× / ${warm.p99Ratio}× |`,
    `| warm p50 / p99, tracing on (p99 vs tracing off) | ${warm.tracingOn.handler.p50Ms} / ${warm.tracingOn.handler.p99Ms} ms (${warm.tracingOn.p99VsTracingOff}×) | bare Query, under X-Ray's hook ${warm.tracingOn.bare.p50Ms} / ${warm.tracingOn.bare.p99Ms} ms | ${warm.tracingOn.p50Ratio}× / ${warm.tracingOn.p99Ratio}× |`,
    ...r.readCost.map(
      (point) =>
        `| read cost, ${point.otherUsersPlants} other users' plants | ${point.queryCapacityUnits} RCU (${point.queryCalls} Query) | Scan ${point.scanCapacityUnits} RCU (${point.scanPages} pages) | |`,
    ),
    ...r.groupReadCost.map(
      (p) =>
        `| read cost of one page, caller in ${p.groups} group(s), limit ${p.limit} | ${p.capacityUnits} RCU (${p.queryCalls} Query) for ${p.plants} plants | | |`,
    ),
    `| peak RSS of the function process | ${mb(r.peakRssBytes.coldStart)} cold, ${mb(r.peakRssBytes.afterWarm)} after ${r.peakRssBytes.warmInvocations} warm invocations | | |`,
    '',
    `| per million requests (${cost.memoryMb} MB arm64, ${cost.billedMs} ms billed, ${cost.readUnitsPerRequest} RCU) | HTTP API | REST API |`,
    `|---|---|---|`,
    `| API Gateway + Lambda + DynamoDB reads (Lambda ${usd(cost.lambda)}, DynamoDB ${usd(cost.dynamodb)}) | ${usd(cost.httpApiTotal)} | ${usd(cost.restApiTotal)} |`,
    '',
    `| target | goal | measured | met |`,
    `|---|---|---|---|`,
    ...r.targets.map((t) => `| ${t.name} | ${t.goal} | ${t.value} | ${t.met ? 'yes' : 'no'} |`),
  ];
  return lines.join('\n');
}

function networkRows({ network: n }: BenchResults): string[] {
  if (!n) return [];
  return [
    `| cold start at ${n.rttMs} ms RTT, median (p90) | ${n.handler.medianMs} ms (${n.handler.p90Ms}) | loopback ${n.loopback.medianMs} ms (${n.loopback.p90Ms}) | +${(n.handler.medianMs - n.loopback.medianMs).toFixed(1)} ms |`,
    `| … of which import (init) / first request | ${n.handler.medianImportMs} / ${n.handler.medianFirstRequestMs} ms | loopback ${n.loopback.medianImportMs} / ${n.loopback.medianFirstRequestMs} ms | |`,
  ];
}
