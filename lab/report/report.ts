// The markdown report printed on stdout (and pasted into lab/docs/performance.md).

import type { BenchResults } from '../results.ts';
import { billRows } from './bill-report.ts';

const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} KB`;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`;

export function renderReport(r: BenchResults): string {
  const { coldStart: cold, warm } = r;
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
    ...costRows(r),
    '',
    ...billRows(r.cost),
    '',
    `| target | goal | measured | met |`,
    `|---|---|---|---|`,
    ...r.targets.map((t) => `| ${t.name} | ${t.goal} | ${t.value} | ${t.met ? 'yes' : 'no'} |`),
  ];
  return lines.join('\n');
}

function costRows({ cost }: BenchResults): string[] {
  const { assumptions: a, billed, perMillionUsd: usd, logBytesPerRequest: bytes } = cost;
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  const mix = Object.entries(a.mix)
    .map(([status, share]) => `${status} ${pct(share)}`)
    .join(', ');
  const line = (item: string, value: number, how: string) => `| ${item} | ${usd4(value)} | ${how} |`;
  return [
    `| per million requests at ${a.requestsPerSecond} req/s (${mix}; ${pct(a.coldStartRate)} cold starts) | USD | from |`,
    '|---|---|---|',
    line('API Gateway (HTTP API)', usd.apiGateway, 'requests'),
    line('Lambda requests', usd.lambdaRequests, 'requests'),
    line('Lambda duration', usd.lambdaDuration, `mean ${r2(billed.durationMs)} ms billed, 1024 MB arm64`),
    line('Lambda INIT', usd.init, `${billed.initMs} ms per cold start`),
    line(
      'DynamoDB reads',
      usd.dynamodb,
      `${billed.readUnitsPerRequest} RRU, + the init warm-up's 0.5 RRU per cold start`,
    ),
    line(
      'CloudWatch Logs ingestion',
      usd.logsIngestion,
      `function ${bytes.functionLog} B + Lambda platform ${bytes.lambdaPlatform} B (Standard), access log ${bytes.apiAccessLog} B (${a.settings.accessLogClass})`,
    ),
    line('CloudWatch Logs storage', usd.logsStorage, `${a.logRetentionDays} days, compressed`),
    line('X-Ray', usd.xray, a.settings.tracing ? '1/s + 5% traced' : 'tracing off'),
    line('Data transfer out', usd.dataTransferOut, `${cost.responseBytesPerRequest} B per response`),
    line('Cognito (Lite)', usd.cognito, `${a.usersPerRequestPerSecond * a.requestsPerSecond} monthly active users`),
    `| **total** | **${usd4(usd.total)}** | ${usd4(cost.totalExcludingDataTransferUsd)} without data transfer out |`,
    '',
    '| flag (price against the default) | total per million | change |',
    '|---|---|---|',
    ...cost.flags.map(
      (f) => `| \`${f.flag}\` | ${usd4(f.totalUsd)} | ${f.changeUsd < 0 ? '−' : '+'}${usd4(Math.abs(f.changeUsd))} |`,
    ),
    '',
    `| a month, whatever the traffic | USD |`,
    '|---|---|',
    `| ${cost.monthlyUsd.counts.alarms} alarms (${cost.monthlyUsd.counts.alarmMetrics} alarm metrics) | $${cost.monthlyUsd.alarms.toFixed(2)} |`,
    `| ${cost.monthlyUsd.counts.dashboards} dashboard | $${cost.monthlyUsd.dashboard.toFixed(2)} |`,
    `| ${cost.monthlyUsd.counts.contributorInsightsRules} Contributor Insights rules (throttled keys) | $${cost.monthlyUsd.contributorInsights.toFixed(2)} |`,
    `| at most ${cost.monthlyUsd.counts.customMetrics} custom metrics | $${cost.monthlyUsd.customMetrics.toFixed(2)} |`,
  ];
}

const usd4 = (value: number) => `$${value.toFixed(4)}`;
const r2 = (value: number) => String(Math.round(value * 100) / 100);

function networkRows({ network: n }: BenchResults): string[] {
  if (!n) return [];
  return [
    `| cold start at ${n.rttMs} ms RTT, median (p90) | ${n.handler.medianMs} ms (${n.handler.p90Ms}) | loopback ${n.loopback.medianMs} ms (${n.loopback.p90Ms}) | +${(n.handler.medianMs - n.loopback.medianMs).toFixed(1)} ms |`,
    `| … of which import (init) / first request | ${n.handler.medianImportMs} / ${n.handler.medianFirstRequestMs} ms | loopback ${n.loopback.medianImportMs} / ${n.loopback.medianFirstRequestMs} ms | |`,
  ];
}
