// The function process: a fresh Node process that imports one bundle and invokes its handler, as
// a Lambda container would. Plain JavaScript so nothing but the bundle is compiled or loaded.
// With BENCH_BASELINE set it also imports that bundle and alternates invocations between the two,
// so both see the same machine and the same DynamoDB state. Input from the environment;
// output: one JSON line on file descriptor 3 (stdout carries the function's own log lines, as on
// Lambda). Times are milliseconds since this process started; CPU times are the process's user +
// system time (every thread: V8's compiler and GC threads too) up to the same points.

import { writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const bootMs = performance.now();
const event = JSON.parse(process.env.BENCH_EVENT ?? '{}');
const warmup = Number(process.env.BENCH_WARMUP ?? 0);
const invocations = Number(process.env.BENCH_INVOCATIONS ?? 0);
const traced = process.env.BENCH_TRACE === '1';
let requestId = 0;
const context = () => {
  requestId++;
  // With tracing on, a fresh sampled trace per invocation, set where the Lambda runtime sets it.
  if (traced) {
    const seconds = Math.floor(Date.now() / 1000).toString(16);
    const id = requestId.toString(16).padStart(24, '0');
    process.env._X_AMZN_TRACE_ID = `Root=1-${seconds}-${id};Parent=${id.slice(8)};Sampled=1`;
  }
  return {
    functionName: 'plant-store-bench',
    awsRequestId: `bench-${requestId}`,
    getRemainingTimeInMillis: () => 10_000,
  };
};
const load = async (file) => (await import(pathToFileURL(file).href)).handler;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const handler = await load(process.env.BENCH_BUNDLE ?? '');
const initMs = performance.now();
const initCpuMs = cpuMs();
const first = await handler(event, context());
const readyMs = performance.now();
const readyCpuMs = cpuMs();

const functions = [{ handler, latenciesUs: [], failures: 0 }];
if (process.env.BENCH_BASELINE) {
  const baseline = await load(process.env.BENCH_BASELINE);
  await baseline(event, context());
  functions.push({ handler: baseline, latenciesUs: [], failures: 0 });
}
for (let i = 0; i < warmup; i++) for (const f of functions) await f.handler(event, context());
for (let i = 0; i < invocations; i++) {
  for (const f of functions) {
    const start = performance.now();
    const response = await f.handler(event, context());
    f.latenciesUs.push(Math.round((performance.now() - start) * 1000));
    if (response.statusCode !== 200) f.failures++;
  }
}

const body = JSON.parse(first.body);
const result = {
  bootMs,
  initMs,
  readyMs,
  initCpuMs,
  readyCpuMs,
  statusCode: first.statusCode,
  items: Array.isArray(body) ? body.length : -1,
  latenciesUs: functions[0].latenciesUs,
  baselineLatenciesUs: functions[1]?.latenciesUs ?? [],
  failures: functions.reduce((sum, f) => sum + f.failures, 0),
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
};
writeSync(3, `${JSON.stringify(result)}\n`);
