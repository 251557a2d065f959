// The function process: a fresh Node process that imports one bundle and invokes its handler, as
// a Lambda container would. Plain JavaScript so nothing but the bundle is compiled or loaded.
// Input from the environment (BENCH_BUNDLE, BENCH_EVENT, BENCH_WARMUP, BENCH_INVOCATIONS);
// output: one JSON line on stdout. Times are milliseconds since this process started.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const bootMs = performance.now();
const event = JSON.parse(process.env.BENCH_EVENT ?? '{}');
const warmup = Number(process.env.BENCH_WARMUP ?? 0);
const invocations = Number(process.env.BENCH_INVOCATIONS ?? 0);
let requestId = 0;
const context = () => ({
  functionName: 'plant-store-bench',
  awsRequestId: `bench-${++requestId}`,
  getRemainingTimeInMillis: () => 10_000,
});

const { handler } = await import(pathToFileURL(process.env.BENCH_BUNDLE ?? '').href);
const initMs = performance.now();
const first = await handler(event, context());
const readyMs = performance.now();

for (let i = 0; i < warmup; i++) await handler(event, context());
const latenciesUs = [];
let failures = 0;
for (let i = 0; i < invocations; i++) {
  const start = performance.now();
  const response = await handler(event, context());
  latenciesUs.push(Math.round((performance.now() - start) * 1000));
  if (response.statusCode !== first.statusCode) failures++;
}

const body = JSON.parse(first.body);
const result = {
  bootMs,
  initMs,
  readyMs,
  statusCode: first.statusCode,
  items: Array.isArray(body) ? body.length : -1,
  latenciesUs,
  failures,
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
