// What a million requests cost, every billed line, from measured bytes and the measured p50 at the
// stated traffic: prices from prices.ts, the function's log bytes from log-bytes.ts, the records
// only AWS writes from aws-records.ts.

import { FUNCTION_MEMORY_MB } from '../infra/function-runtime.ts';
import { DEFAULT_TELEMETRY, LOG_RETENTION_DAYS, type TelemetrySettings } from '../infra/telemetry.ts';
import { accessLogRecord, platformInitRecords, platformRecords, responseBytes } from './aws-records.ts';
import type { LogMeasurement, Status, StatusLog } from './log-bytes.ts';
import { BILLING_FACTS, PRICES } from './prices.ts';

/** The traffic the figures are for. */
export const ASSUMPTIONS = {
  requestsPerSecond: 100,
  /**
   * Share of requests by answer: most succeed; clients that refresh tokens late get some 401s;
   * a 400 is a client bug; a 503 only during an outage. The bytes of each are measured; the mix is assumed.
   */
  mix: { '200': 0.979, '400': 0.005, '401': 0.015, '503': 0.001 } satisfies Record<Status, number>,
  /**
   * Cold starts per request. A steady 100 requests/s keeps 1–2 environments busy (100/s × ~10 ms);
   * if Lambda replaced ten of them every ten minutes that would be 0.017%. 0.1% leaves room for daily
   * ramps, bursts and deployments (each new version starts every environment cold). AWS's own
   * figure, "under 1% of invocations" in production, spans every function, rarely called ones too.
   */
  coldStartRate: 0.001,
  /** DynamoDB read request units of the init warm-up's Query, per cold start. */
  warmUpReadUnits: 0.5,
};

export interface Measured {
  logs: LogMeasurement;
  /** Warm p50 (ms) with tracing off and on. */
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
] as const;
export type PerMillion = Record<(typeof BILLED_LINES)[number] | 'total', number>;
export type StreamBytes = { functionLog: number; lambdaPlatform: number; apiAccessLog: number };

const GB = 1e9;
const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
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
export function logBytes(measured: Measured, settings: TelemetrySettings) {
  const { logs } = measured;
  const durationMs = durationOf(measured, settings);
  const byStatus = {} as Record<Status, StreamBytes & { response: number }>;
  for (const status of Object.keys(ASSUMPTIONS.mix) as Status[]) {
    const log: StatusLog = logs.byStatus[status];
    const request = { status: log.statusCode, durationMs, bodyBytes: Buffer.byteLength(log.response.body) };
    byStatus[status] = {
      functionLog: billed(functionLines(logs, status, settings)),
      lambdaPlatform: billed(platformRecords(settings, { ...request, maxMemoryUsedMB: measured.maxMemoryUsedMB })),
      apiAccessLog: billed([accessLogRecord(settings, request)]),
      response: responseBytes(log.response),
    };
  }
  const weighted = (key: keyof (typeof byStatus)[Status]) =>
    Object.entries(ASSUMPTIONS.mix).reduce((sum, [status, share]) => sum + share * byStatus[status as Status][key], 0);
  const cold = ASSUMPTIONS.coldStartRate;
  const perRequest: StreamBytes = {
    functionLog: round(weighted('functionLog') + cold * billed(logs.coldStart.lines), 1),
    lambdaPlatform: round(
      weighted('lambdaPlatform') + cold * billed(platformInitRecords(settings, measured.initMs)),
      1,
    ),
    apiAccessLog: round(weighted('apiAccessLog'), 1),
  };
  return { perRequest, byStatus, responseBytes: round(weighted('response'), 1) };
}

/**
 * The p50 the settings run at. Tracing is timed later in the run than the rest, so on a busy machine
 * its p50 can come out lower; tracing never makes a request faster, so it is priced at no less.
 */
function durationOf(measured: Measured, settings: TelemetrySettings): number {
  return settings.tracing ? Math.max(measured.p50Ms, measured.tracedP50Ms) : measured.p50Ms;
}

/** Every billed line per million requests under these settings, at ASSUMPTIONS' traffic. */
export function perMillion(measured: Measured, settings: TelemetrySettings): PerMillion {
  const { perRequest, responseBytes: response } = logBytes(measured, settings);
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
  const lines = {
    apiGateway: PRICES.httpApiRequests.usd,
    lambdaRequests: PRICES.lambdaRequests.usd,
    // Lambda bills duration rounded up to the millisecond.
    lambdaDuration: (Math.max(1, Math.ceil(durationMs)) / 1000) * gb * gbSecond * 1e6,
    init: cold * (Math.ceil(measured.initMs) / 1000) * gb * gbSecond * 1e6,
    dynamodb: (measured.readUnitsPerRequest + cold * ASSUMPTIONS.warmUpReadUnits) * PRICES.dynamodbReadRequest.usd,
    logsIngestion:
      ((functionGroupBytes * PRICES.logsIngestStandard.usd + perRequest.apiAccessLog * accessPrice) / GB) * 1e6,
    logsStorage:
      ((allBytes * BILLING_FACTS.logStorageCompression * PRICES.logsStorage.usd * (LOG_RETENTION_DAYS / 30.4)) / GB) *
      1e6,
    xray: settings.tracing ? tracedShare * PRICES.xrayTraces.usd : 0,
    dataTransferOut: ((response * PRICES.dataTransferOut.usd) / GB) * 1e6,
  };
  const total = Object.values(lines).reduce((sum, value) => sum + value, 0);
  return Object.fromEntries(Object.entries({ ...lines, total }).map(([k, v]) => [k, round(v)])) as PerMillion;
}

/** Each flag's other values, priced against the default stack (total per million, and the change). */
export const FLAG_VARIANTS: { flag: string; settings: Partial<TelemetrySettings> }[] = [
  { flag: 'requestLog=all', settings: { requestLog: 'all' } },
  { flag: 'accessLog=full', settings: { accessLog: 'full' } },
  { flag: 'accessLogClass=standard', settings: { accessLogClass: 'standard' } },
  { flag: 'tracing=true', settings: { tracing: true } },
  { flag: 'systemLogLevel=INFO', settings: { systemLogLevel: 'INFO' } },
  { flag: 'systemLogLevel=DEBUG', settings: { systemLogLevel: 'DEBUG' } },
];

export function costOf(measured: Measured) {
  const usd = perMillion(measured, DEFAULT_TELEMETRY);
  const bytes = logBytes(measured, DEFAULT_TELEMETRY);
  return {
    assumptions: { ...ASSUMPTIONS, settings: DEFAULT_TELEMETRY, logRetentionDays: LOG_RETENTION_DAYS },
    billed: {
      durationMs: Math.max(1, Math.ceil(measured.p50Ms)),
      initMs: Math.ceil(measured.initMs),
      readUnitsPerRequest: measured.readUnitsPerRequest,
    },
    perMillionUsd: usd,
    /** The total without internet data transfer, which the response size (the clients' page size) sets. */
    totalExcludingDataTransferUsd: round(usd.total - usd.dataTransferOut),
    logBytesPerRequest: bytes.perRequest,
    logBytesByStatus: bytes.byStatus,
    responseBytesPerRequest: bytes.responseBytes,
    /** What the function wrote, warm, for each status: the records themselves. */
    functionRecords: Object.fromEntries(
      Object.entries(measured.logs.byStatus).map(([status, log]) => [status, log.function.lines]),
    ),
    flags: FLAG_VARIANTS.map(({ flag, settings }) => {
      const total = perMillion(measured, { ...DEFAULT_TELEMETRY, ...settings }).total;
      return { flag, totalUsd: total, changeUsd: round(total - usd.total) };
    }),
  };
}
