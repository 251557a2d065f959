// What a million requests cost, every billed line, from measured bytes, read units and the mean
// billed duration at the stated traffic: prices from prices.ts, the function's log bytes from
// log-bytes.ts, the records only AWS writes from aws-records.ts, Cognito by the users stated here.

import { FUNCTION_MEMORY_MB } from '../../infra/function-runtime.ts';
import { DEFAULT_TELEMETRY, LOG_RETENTION_DAYS, type TelemetrySettings } from '../../infra/telemetry.ts';
import type { LogMeasurement, Status, StatusLog } from '../measure/log-bytes.ts';
import { accessLogRecord, platformInitRecords, platformRecords, responseBytes } from './aws-records.ts';
import { GB, roundTo } from './money.ts';
import { COGNITO_LITE_TIERS, tiered } from './price-tiers.ts';
import { BILLING_FACTS, PRICES } from './prices.ts';
import { ASSUMPTIONS, apiUnitsPerRequest, monthlyRequests } from './traffic.ts';

export interface Measured {
  logs: LogMeasurement;
  /** Mean billed duration of a warm invocation (each rounded up to 1 ms), over the modelled network when given. */
  billedDurationMs: number;
  /** Warm p50 (ms) with tracing off and on, loopback: tracing's extra duration is their difference. */
  p50Ms: number;
  tracedP50Ms: number;
  /** Process start to module loaded, median (Lambda's INIT). */
  initMs: number;
  readUnitsPerRequest: number;
  maxMemoryUsedMB: number;
}

export const BILLED_LINES = [
  'apiGateway',
  'lambdaRequests',
  'lambdaDuration',
  'init',
  'dynamodb',
  'logsIngestion',
  'logsStorage',
  'xray',
  'dataTransferOut',
  'cognito',
] as const;
export type PerMillion = Record<(typeof BILLED_LINES)[number] | 'total', number>;
export type StreamBytes = { functionLog: number; lambdaPlatform: number; apiAccessLog: number };

/** Billed bytes of log events: each message plus the per-event overhead. */
const billed = (lines: string[]) =>
  lines.reduce((sum, line) => sum + Buffer.byteLength(line) + BILLING_FACTS.logEventOverheadBytes, 0);

/** The function's lines for one status under these settings (REQUEST_LOG=all and tracing were measured apart). */
function functionLines(logs: LogMeasurement, status: Status, settings: TelemetrySettings): string[] {
  if (settings.requestLog === 'all' && status === '200') return logs.requestLogAll['200'].function.lines;
  if (settings.tracing && (status === '200' || status === '401')) return logs.tracing[status].function.lines;
  return logs.byStatus[status].function.lines;
}

/** Bytes per request of each log stream, and of each status apart. */
/** Stack options that change what is billed beyond the telemetry settings. */
export interface StackOptions {
  /** -c jwtAuthorizer=true: the gateway refuses bad tokens; no request, invocation or function record for them. */
  jwtAuthorizer?: boolean;
}

/** Share of requests the gateway's JWT authorizer refuses (the 401s): never billed, never invoked. */
const refusedAtGateway = (options: StackOptions) => (options.jwtAuthorizer ? ASSUMPTIONS.mix['401'] : 0);

export function logBytes(measured: Measured, settings: TelemetrySettings, options: StackOptions = {}) {
  const { logs } = measured;
  const durationMs = durationOf(measured, settings);
  const byStatus = {} as Record<Status, StreamBytes & { response: number }>;
  for (const status of Object.keys(ASSUMPTIONS.mix) as Status[]) {
    const log: StatusLog = logs.byStatus[status];
    const request = { status: log.statusCode, durationMs, bodyBytes: Buffer.byteLength(log.response.body) };
    byStatus[status] = {
      functionLog: billed(functionLines(logs, status, settings)),
      lambdaPlatform: billed(platformRecords(settings, { ...request, maxMemoryUsedMB: measured.maxMemoryUsedMB })),
      apiAccessLog: billed([accessLogRecord(settings, request, options.jwtAuthorizer)]),
      response: responseBytes(log.response),
    };
  }
  const weighted = (key: keyof (typeof byStatus)[Status]) =>
    Object.entries(ASSUMPTIONS.mix).reduce((sum, [status, share]) => sum + share * byStatus[status as Status][key], 0);
  // What the function writes: nothing for the requests the gateway refused.
  const invoked = (key: 'functionLog' | 'lambdaPlatform') =>
    weighted(key) - refusedAtGateway(options) * byStatus['401'][key];
  const cold = ASSUMPTIONS.coldStartRate;
  const perRequest: StreamBytes = {
    functionLog: roundTo(invoked('functionLog') + cold * billed(logs.coldStart.lines), 1),
    lambdaPlatform: roundTo(
      invoked('lambdaPlatform') + cold * billed(platformInitRecords(settings, measured.initMs)),
      1,
    ),
    apiAccessLog: roundTo(weighted('apiAccessLog'), 1),
  };
  return { perRequest, byStatus, responseBytes: roundTo(weighted('response'), 1) };
}

/**
 * The mean billed duration the settings run at: tracing adds what it added to the loopback p50
 * (timed later in the run, so on a busy machine it can come out lower; it is never priced below 0).
 */
function durationOf(measured: Measured, settings: TelemetrySettings): number {
  const tracing = settings.tracing ? Math.max(0, Math.ceil(measured.tracedP50Ms - measured.p50Ms)) : 0;
  return measured.billedDurationMs + tracing;
}

/** Every billed line per million requests under these settings, at ASSUMPTIONS' traffic. */
export function perMillion(measured: Measured, settings: TelemetrySettings, options: StackOptions = {}): PerMillion {
  const { perRequest, responseBytes: response } = logBytes(measured, settings, options);
  const billedShare = 1 - refusedAtGateway(options);
  const gb = FUNCTION_MEMORY_MB / 1024;
  const gbSecond = PRICES.lambdaArmGbSecond.usd;
  const durationMs = durationOf(measured, settings);
  const cold = ASSUMPTIONS.coldStartRate;
  const accessPrice =
    settings.accessLogClass === 'standard' ? PRICES.logsIngestStandard.usd : PRICES.logsIngestInfrequent.usd;
  const functionGroupBytes = perRequest.functionLog + perRequest.lambdaPlatform;
  const allBytes = functionGroupBytes + perRequest.apiAccessLog;
  const rps = ASSUMPTIONS.requestsPerSecond;
  const tracedShare = Math.min(
    1,
    (BILLING_FACTS.xrayReservoirPerSecond + BILLING_FACTS.xrayFixedRate * Math.max(0, rps - 1)) / rps,
  );
  const users = rps * ASSUMPTIONS.usersPerRequestPerSecond;
  const lines = {
    apiGateway: billedShare * apiUnitsPerRequest(measured.logs) * PRICES.httpApiRequests.usd,
    lambdaRequests: billedShare * PRICES.lambdaRequests.usd,
    // Already the mean of each invocation's duration rounded up to the millisecond.
    lambdaDuration: billedShare * (durationMs / 1000) * gb * gbSecond * 1e6,
    init: cold * (Math.ceil(measured.initMs) / 1000) * gb * gbSecond * 1e6,
    dynamodb: (measured.readUnitsPerRequest + cold * ASSUMPTIONS.warmUpReadUnits) * PRICES.dynamodbReadRequest.usd,
    logsIngestion:
      ((functionGroupBytes * PRICES.logsIngestStandard.usd + perRequest.apiAccessLog * accessPrice) / GB) * 1e6,
    logsStorage:
      ((allBytes * BILLING_FACTS.logStorageCompression * PRICES.logsStorage.usd * (LOG_RETENTION_DAYS / 30.4)) / GB) *
      1e6,
    xray: settings.tracing ? tracedShare * PRICES.xrayTraces.usd : 0,
    dataTransferOut: ((response * PRICES.dataTransferOut.usd) / GB) * 1e6,
    // Monthly active users on the Lite plan, spread over the month's requests.
    cognito: (tiered(users, COGNITO_LITE_TIERS) / monthlyRequests(rps)) * 1e6,
  };
  const total = Object.values(lines).reduce((sum, value) => sum + value, 0);
  return Object.fromEntries(Object.entries({ ...lines, total }).map(([k, v]) => [k, roundTo(v, 4)])) as PerMillion;
}

/** Each flag's other values, priced against the default stack (total per million, and the change). */
export const FLAG_VARIANTS: { flag: string; settings: Partial<TelemetrySettings>; options?: StackOptions }[] = [
  { flag: 'requestLog=all', settings: { requestLog: 'all' } },
  { flag: 'accessLog=full', settings: { accessLog: 'full' } },
  { flag: 'accessLogClass=standard', settings: { accessLogClass: 'standard' } },
  { flag: 'tracing=true', settings: { tracing: true } },
  { flag: 'systemLogLevel=INFO', settings: { systemLogLevel: 'INFO' } },
  { flag: 'systemLogLevel=DEBUG', settings: { systemLogLevel: 'DEBUG' } },
  { flag: 'jwtAuthorizer=true', settings: {}, options: { jwtAuthorizer: true } },
];

export function costOf(measured: Measured) {
  const usd = perMillion(measured, DEFAULT_TELEMETRY);
  const bytes = logBytes(measured, DEFAULT_TELEMETRY);
  return {
    assumptions: { ...ASSUMPTIONS, settings: DEFAULT_TELEMETRY, logRetentionDays: LOG_RETENTION_DAYS },
    billed: {
      /** Mean billed duration of a warm invocation. */
      durationMs: measured.billedDurationMs,
      /** HTTP API units per request (512 KB each). */
      apiUnits: roundTo(apiUnitsPerRequest(measured.logs), 4),
      initMs: Math.ceil(measured.initMs),
      readUnitsPerRequest: measured.readUnitsPerRequest,
    },
    perMillionUsd: usd,
    /** The total without internet data transfer, which the response size (the clients' page size) sets. */
    totalExcludingDataTransferUsd: roundTo(usd.total - usd.dataTransferOut, 4),
    /** The total without Cognito, which the users (not the requests) set. */
    totalExcludingCognitoUsd: roundTo(usd.total - usd.cognito, 4),
    logBytesPerRequest: bytes.perRequest,
    logBytesByStatus: bytes.byStatus,
    responseBytesPerRequest: bytes.responseBytes,
    /** What the function wrote, warm, for each status: the records themselves. */
    functionRecords: Object.fromEntries(
      Object.entries(measured.logs.byStatus).map(([status, log]) => [status, log.function.lines]),
    ),
    flags: FLAG_VARIANTS.map(({ flag, settings, options }) => {
      const total = perMillion(measured, { ...DEFAULT_TELEMETRY, ...settings }, options).total;
      return { flag, totalUsd: total, changeUsd: roundTo(total - usd.total, 4) };
    }),
  };
}
