// The most an hour can cost at the bill ceiling (infra/ceiling.ts), as the sum of what can happen
// together: the stage's rate of admitted requests, each a page filled to the byte budget (cached group
// reads included: they skip the table, not the response), and a flood past the stage. A flood is not
// limited by any throttle (a throttle only answers 429), so it is priced per 1,000 requests a second,
// each writing the largest access log line its format allows, and at the account throttle's worth
// (an option's own worst hour: its file in options/). Bounds where a hard cap holds: the table's maximum
// throughput (reads), the page byte budget (bytes per response), reserved concurrency (a hung hour).

import { HEADROOM, MAX_PAGE_BYTES, PAGE_BYTE_BUDGET } from '../../handlers/lib/page-budget.ts';
import { ACCESS_LOG_FORMATS, type AccessLogFormat } from '../../handlers/lib/telemetry-names.ts';
import {
  type Ceiling,
  ceilingFor,
  DEFAULT_MAX_REQUESTS_PER_SECOND,
  MAX_REQUESTS_PER_SECOND,
} from '../../infra/ceiling.ts';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS } from '../../infra/function-runtime.ts';
import { DEFAULT_TELEMETRY } from '../../infra/telemetry.ts';
import type { Status } from '../measure/log-bytes.ts';
import {
  AUTHORIZER_REFUSAL,
  accessLogRecord,
  largestAccessLogRecord,
  responseBytes,
  THROTTLED_RESPONSE,
} from './aws-records.ts';
import type { StreamBytes } from './cost.ts';
import { cents, GB, roundTo } from './money.ts';
import { BILLING_FACTS, PRICES } from './prices.ts';

export interface HourInputs {
  /** Mean billed duration of a warm 200 (ms); a refused token is billed at least 1 ms. */
  billedDurationMs: number;
  refusalDurationMs: number;
  /** Bytes each answer writes to each log stream, and sends back (results.json's cost.logBytesByStatus). */
  logBytesByStatus: Record<Status, StreamBytes & { response: number }>;
}

/** The largest response of each kind: a page filled to the budget, and one plant of DynamoDB's largest item. */
export const PAGE_RESPONSE_BYTES = { budget: PAGE_BYTE_BUDGET + HEADROOM, largest: MAX_PAGE_BYTES + HEADROOM };

const sum = (lines: Record<string, number>) => cents(Object.values(lines).reduce((a, b) => a + b, 0));
const round = <T extends Record<string, number>>(lines: T) =>
  Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, roundTo(v, 4)])) as T;

type Limits = Omit<Ceiling, 'reserveConcurrency'>;

export function worstHour(inputs: HourInputs, ceiling: Limits) {
  const perHour = ceiling.maxRequestsPerSecond * 3600;
  const gbSecond = (FUNCTION_MEMORY_MB / 1024) * PRICES.lambdaArmGbSecond.usd;
  const ok = inputs.logBytesByStatus['200'];
  const refused = inputs.logBytesByStatus['401'];
  const accessLog = (bytes: number) => (bytes * PRICES.logsIngestInfrequent.usd) / GB;
  const units = (bytes: number) => Math.ceil(bytes / BILLING_FACTS.httpApiMeteringBytes);
  const admitted = (pageBytes: number) => ({
    apiGateway: perHour * units(pageBytes) * (PRICES.httpApiRequests.usd / 1e6),
    lambdaRequests: perHour * (PRICES.lambdaRequests.usd / 1e6),
    lambdaDuration: perHour * (inputs.billedDurationMs / 1000) * gbSecond,
    // A bound: the table's maximum throughput, every second of the hour (cached reads add none).
    dynamodbReads: ceiling.maxReadRequestUnits * 3600 * (PRICES.dynamodbReadRequest.usd / 1e6),
    logs: perHour * accessLog(ok.apiAccessLog),
    dataTransferOut: (perHour * pageBytes * PRICES.dataTransferOut.usd) / GB,
  });
  const valid = admitted(PAGE_RESPONSE_BYTES.budget);
  const largest = admitted(PAGE_RESPONSE_BYTES.largest);
  // Past the stage: API Gateway bills no 429 (re:Post, unverified), but each writes the largest line
  // its access log format allows (with the gateway's JWT authorizer, its fields too) and sends API
  // Gateway's own 429.
  const thousandPerHour = 1000 * 3600;
  const line = (record: string) => Buffer.byteLength(record) + BILLING_FACTS.logEventOverheadBytes;
  const floodLine = (accessLog: AccessLogFormat, jwtAuthorizer = false) =>
    line(largestAccessLogRecord({ ...DEFAULT_TELEMETRY, accessLog }, jwtAuthorizer));
  const throttledBytes = responseBytes(THROTTLED_RESPONSE);
  const floodPerThousand = (format: AccessLogFormat, jwtAuthorizer = false) => ({
    logs: thousandPerHour * accessLog(floodLine(format, jwtAuthorizer)),
    dataTransferOut: (thousandPerHour * throttledBytes * PRICES.dataTransferOut.usd) / GB,
  });
  const byFormat = (of: (format: AccessLogFormat) => number) =>
    Object.fromEntries(ACCESS_LOG_FORMATS.map((format) => [format, of(format)])) as Record<AccessLogFormat, number>;
  // A forged token the gateway's authorizer refuses: its own 401, logged with the authorizer's fields.
  const authorizerRefusal = line(
    accessLogRecord(
      DEFAULT_TELEMETRY,
      { status: AUTHORIZER_REFUSAL.statusCode, durationMs: 0, bodyBytes: Buffer.byteLength(AUTHORIZER_REFUSAL.body) },
      true,
    ),
  );
  const lean = floodPerThousand(DEFAULT_TELEMETRY.accessLog);
  // As many requests past the stage as the account throttle admits in all: the flood it takes to
  // crowd out every other API of the account and Region.
  const accountFlood = Math.max(0, MAX_REQUESTS_PER_SECOND - ceiling.maxRequestsPerSecond) / 1000;
  const throttled = { logs: accountFlood * lean.logs, dataTransferOut: accountFlood * lean.dataTransferOut };
  const forged = {
    apiGateway: perHour * (PRICES.httpApiRequests.usd / 1e6),
    lambdaRequests: perHour * (PRICES.lambdaRequests.usd / 1e6),
    lambdaDuration: perHour * (inputs.refusalDurationMs / 1000) * gbSecond,
    logs:
      perHour *
      (((refused.functionLog + refused.lambdaPlatform) * PRICES.logsIngestStandard.usd) / GB +
        accessLog(refused.apiAccessLog)),
    dataTransferOut: (perHour * refused.response * PRICES.dataTransferOut.usd) / GB,
  };
  const machineToken = PRICES.cognitoM2mTokenRequests.usd / 1000;
  return {
    maxRequestsPerSecond: ceiling.maxRequestsPerSecond,
    /** Bytes of one response: a typical 100-plant page (measured), and the two largest kinds. */
    pageBytes: { typical: ok.response, ...PAGE_RESPONSE_BYTES },
    /** Every admitted request a page filled to the byte budget, valid token. */
    validTokensUsd: { ...round(valid), total: sum(valid) },
    /** Every admitted request one plant of DynamoDB's largest item (written outside the data CLI). */
    largestPagesUsd: { ...round(largest), total: sum(largest) },
    /** Bytes of the largest access log line of each format (billed), with -c jwtAuthorizer=true too, and of API Gateway's 429. */
    floodBytes: {
      accessLog: byFormat((format) => floodLine(format)),
      accessLogWithJwtAuthorizer: byFormat((format) => floodLine(format, true)),
      response: throttledBytes,
    },
    /** Each 1,000 requests a second of flood past the stage, for an hour, by access log format. */
    floodPerThousandUsd: {
      ...byFormat((format) => sum(floodPerThousand(format))),
      /** What the HTTP API would add if it billed unmatched routes' 404s (not known: a real account tells). */
      if404sBilled: cents(thousandPerHour * (PRICES.httpApiRequests.usd / 1e6)),
    } as Record<AccessLogFormat | 'if404sBilled', number>,
    /** The same with -c jwtAuthorizer=true, whose lines also carry the caller and the authorizer's error. */
    floodPerThousandWithJwtAuthorizerUsd: byFormat((format) => sum(floodPerThousand(format, true))),
    /** A flood of the account throttle's worth past the stage, the default access log. */
    throttledFloodUsd: { ...round(throttled), total: sum(throttled) },
    /** The worst hour, an estimate: admitted full pages and a flood of the account throttle's worth. */
    worstHourUsd: {
      admitted: sum(valid),
      throttled: sum(throttled),
      total: cents(sum(valid) + sum(throttled)),
      withLargestPages: cents(sum(largest) + sum(throttled)),
    },
    /**
     * If every admitted request ran to the function's timeout (a hung dependency): the duration line
     * alone, bounded by reserved concurrency when it is on, else by the stage rate times the timeout.
     */
    hungDurationUsd: {
      reservedConcurrency: cents(ceiling.concurrency * 3600 * gbSecond),
      unreserved: cents(perHour * FUNCTION_TIMEOUT_SECONDS * gbSecond),
    },
    forgedTokensUsd: { ...round(forged), total: sum(forged) },
    /** With -c jwtAuthorizer=true the gateway refuses them: no request billed, an access log line each. */
    forgedTokensGatewayAuthorizerUsd: cents(perHour * accessLog(authorizerRefusal)),
    /**
     * With -c authRequiredScope: each client-credentials token is billed, and Cognito's token endpoint
     * is outside every ceiling here. A client fetching one per call at the stage's rate, for an hour.
     */
    machineTokens: {
      perTokenUsd: machineToken,
      /** One token a second for an hour: the MachineTokens alarm's threshold (infra/monitoring.ts). */
      perTokenPerSecondHourUsd: cents(3600 * machineToken),
      tokenPerCallHourUsd: cents(perHour * machineToken),
    },
  };
}

/** At the default ceiling. */
export const worstHourAtDefault = (inputs: HourInputs) =>
  worstHour(inputs, ceilingFor(DEFAULT_MAX_REQUESTS_PER_SECOND));
