// The function process: a fresh Node process that imports one bundle and invokes its handler, as
// a Lambda container would. Plain JavaScript so nothing but the bundle is compiled or loaded.
// With BENCH_BASELINE set it also imports that bundle and alternates invocations between the two,
// so both see the same machine and the same DynamoDB state. Input from the environment;
// output: one JSON line on file descriptor 3 (stdout carries the function's own log lines, as on
// Lambda). Times are milliseconds since this process started; CPU times are the process's user +
// system time (every thread: V8's compiler and GC threads too) up to the same points.
// With BENCH_LOG_EVENTS (a JSON object, name → event) it also keeps what the function writes, line
// by line as Lambda collects it: for the cold start (INIT and the first invocation) and for each
// named event's second, warm invocation. With AWS_LAMBDA_LOG_FORMAT=JSON, console output is wrapped
// as the Node.js runtime wraps it in that format.
// With BENCH_CPU_PROFILE (a path prefix) the inspector's sampling profiler records the cold start
// (`<prefix>.init.cpuprofile`: the bundle's import, its init included; `.first.cpuprofile`: the first
// invocation) and the timed invocations (`.warm.cpuprofile`). With BENCH_PAUSE (a path prefix) it
// stops before the import and after the first response, and before and after the timed invocations,
// writing `pause <where>` on fd 3 and going on once `<prefix>.<where>` exists: what counts the
// instructions in between (valgrind's callgrind, lab/measure/instructions.ts) switches on and off there.

import { existsSync, writeFileSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';

const bootMs = performance.now();
const logEvents = process.env.BENCH_LOG_EVENTS ? JSON.parse(process.env.BENCH_LOG_EVENTS) : undefined;
let written = [];
if (logEvents) {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = (chunk, ...rest) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return write(chunk, ...rest);
    };
  }
}
const takeLines = () => {
  const lines = written.join('').split('\n').filter(Boolean);
  written = [];
  return lines;
};
let currentRequestId;
if (process.env.AWS_LAMBDA_LOG_FORMAT === 'JSON') {
  const levels = { log: 'INFO', info: 'INFO', warn: 'WARN', error: 'ERROR', debug: 'DEBUG', trace: 'TRACE' };
  for (const [method, level] of Object.entries(levels)) {
    console[method] = (...args) => {
      const record = {
        timestamp: new Date().toISOString(),
        level,
        requestId: currentRequestId,
        message: format(...args),
      };
      process.stdout.write(`${JSON.stringify(record)}\n`);
    };
  }
}
const event = JSON.parse(process.env.BENCH_EVENT ?? '{}');
const warmup = Number(process.env.BENCH_WARMUP ?? 0);
const invocations = Number(process.env.BENCH_INVOCATIONS ?? 0);
const traced = process.env.BENCH_TRACE === '1';
// What Lambda's context says is left of the invocation (Middy answers a 500 just before it runs out):
// a function timeout's worth, longer where the process runs slowed down (under valgrind).
const remainingMs = Number(process.env.BENCH_REMAINING_MS ?? 10_000);
let requestId = 0;
const context = () => {
  requestId++;
  // With tracing on, a fresh sampled trace per invocation, set where the Lambda runtime sets it.
  if (traced) {
    const seconds = Math.floor(Date.now() / 1000).toString(16);
    const id = requestId.toString(16).padStart(24, '0');
    process.env._X_AMZN_TRACE_ID = `Root=1-${seconds}-${id};Parent=${id.slice(8)};Sampled=1`;
  }
  // A request id shaped like Lambda's (a UUID), since it is written into the records.
  currentRequestId = `${requestId.toString(16).padStart(8, '0')}-2c3e-4a3b-9a8e-1d2c3b4a5f60`;
  // Named as a CDK-deployed function invoked through its `live` alias.
  return {
    functionName: 'PlantStore-ListPlantsFunction1A2B3C4D-AbCdEfGhIjKl',
    functionVersion: '7',
    invokedFunctionArn:
      'arn:aws:lambda:us-east-1:123456789012:function:PlantStore-ListPlantsFunction1A2B3C4D-AbCdEfGhIjKl:live',
    memoryLimitInMB: '1024',
    awsRequestId: currentRequestId,
    getRemainingTimeInMillis: () => remainingMs,
  };
};
const load = async (file) => (await import(pathToFileURL(file).href)).handler;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

const pausePrefix = process.env.BENCH_PAUSE;
const pause = async (where) => {
  if (!pausePrefix) return;
  writeSync(3, `pause ${where}\n`);
  while (!existsSync(`${pausePrefix}.${where}`)) await new Promise((resolve) => setTimeout(resolve, 20));
};
const profilePrefix = process.env.BENCH_CPU_PROFILE;
const profiler = profilePrefix && new (await import('node:inspector/promises')).Session();
const startProfile = async (intervalUs) => {
  if (!profiler) return;
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await profiler.post('Profiler.start');
};
const saveProfile = async (name) => {
  if (!profiler) return;
  const { profile } = await profiler.post('Profiler.stop');
  profiler.disconnect();
  writeFileSync(`${profilePrefix}.${name}.cpuprofile`, JSON.stringify(profile));
};

await pause('import');
await startProfile(1000);
const handler = await load(process.env.BENCH_BUNDLE ?? '');
const initMs = performance.now();
const initCpuMs = cpuMs();
await saveProfile('init');
await startProfile(1000);
const first = await handler(event, context());
const readyMs = performance.now();
const readyCpuMs = cpuMs();
await saveProfile('first');
await pause('first');

const functions = [{ handler, latenciesUs: [], cpuMs: 0, failures: 0 }];
if (process.env.BENCH_BASELINE) {
  const baseline = await load(process.env.BENCH_BASELINE);
  await baseline(event, context());
  functions.push({ handler: baseline, latenciesUs: [], cpuMs: 0, failures: 0 });
}
// With BENCH_PROGRESS_EVERY set, `progress <rounds>` lines on fd 3, written between rounds.
const progressEvery = Number(process.env.BENCH_PROGRESS_EVERY ?? 0);
const reportProgress = (round) => {
  if (progressEvery > 0 && round % progressEvery === 0) writeSync(3, `progress ${progressEvery}\n`);
};
for (let i = 1; i <= warmup; i++) {
  for (const f of functions) await f.handler(event, context());
  reportProgress(i);
}
await pause('warm');
await startProfile(100);
const timedThreadCpuMs = threadCpuMs();
for (let i = 1; i <= invocations; i++) {
  for (const f of functions) {
    const startCpu = cpuMs();
    const start = performance.now();
    const response = await f.handler(event, context());
    f.latenciesUs.push(Math.round((performance.now() - start) * 1000));
    // Process CPU (all threads) while this invocation ran: GC and compiler work land on whoever runs.
    f.cpuMs += cpuMs() - startCpu;
    if (response.statusCode !== 200) f.failures++;
  }
  reportProgress(i);
}
const mainThreadCpuMs = threadCpuMs() - timedThreadCpuMs;
await saveProfile('warm');
await pause('end');
if (progressEvery > 0) writeSync(3, `progress ${(warmup % progressEvery) + (invocations % progressEvery)}\n`);

const logs = logEvents && { cold: takeLines(), events: {} };
for (const [name, logEvent] of Object.entries(logEvents ?? {})) {
  await handler(logEvent, context());
  takeLines();
  const response = await handler(logEvent, context());
  logs.events[name] = { lines: takeLines(), response };
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
  timedCpuMs: functions[0].cpuMs,
  baselineTimedCpuMs: functions[1]?.cpuMs ?? 0,
  mainThreadCpuMs,
  failures: functions.reduce((sum, f) => sum + f.failures, 0),
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
  ...(logs && { logs }),
};
writeSync(3, `${JSON.stringify(result)}\n`);
