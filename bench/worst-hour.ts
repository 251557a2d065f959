// The most an hour can cost at the bill ceiling (infra/ceiling.ts), line by line: callers with valid
// tokens asking for full pages as fast as the stage lets them, and callers with forged tokens, which
// the function refuses (or, with -c jwtAuthorizer=true, the gateway, which bills nothing for them).

import {
  type Ceiling,
  ceilingFor,
  DEFAULT_MAX_REQUESTS_PER_SECOND,
  MAX_REQUESTS_PER_SECOND,
} from '../infra/ceiling.ts';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS } from '../infra/function-runtime.ts';
import type { StreamBytes } from './cost.ts';
import type { Status } from './log-bytes.ts';
import { BILLING_FACTS, PRICES } from './prices.ts';

/** A full default page is 1,000 plants: ten of the bench's 100-plant pages. */
export const FULL_PAGE_FACTOR = 10;

export interface HourInputs {
  /** Mean billed duration of a warm 200 (ms); a refused token is billed at least 1 ms. */
  billedDurationMs: number;
  refusalDurationMs: number;
  /** Bytes each answer writes to each log stream, and sends back (results.json's cost.logBytesByStatus). */
  logBytesByStatus: Record<Status, StreamBytes & { response: number }>;
}

const GB = 1e9;
const cents = (value: number) => Math.round(value * 100) / 100;
const sum = (lines: Record<string, number>) => cents(Object.values(lines).reduce((a, b) => a + b, 0));

export function worstHour(inputs: HourInputs, ceiling: Omit<Ceiling, 'reserveConcurrency' | 'monthlyBudgetUsd'>) {
  const perHour = ceiling.maxRequestsPerSecond * 3600;
  const gbSecond = (FUNCTION_MEMORY_MB / 1024) * PRICES.lambdaArmGbSecond.usd;
  const ok = inputs.logBytesByStatus['200'];
  const refused = inputs.logBytesByStatus['401'];
  const fullPageBytes = ok.response * FULL_PAGE_FACTOR;
  const accessLog = (bytes: number) => (bytes * PRICES.logsIngestInfrequent.usd) / GB;
  const valid = {
    apiGateway:
      perHour * Math.ceil(fullPageBytes / BILLING_FACTS.httpApiMeteringBytes) * (PRICES.httpApiRequests.usd / 1e6),
    lambdaRequests: perHour * (PRICES.lambdaRequests.usd / 1e6),
    lambdaDuration: perHour * (inputs.billedDurationMs / 1000) * gbSecond,
    // Every admitted request reads a full page: the table's maximum, every second of the hour.
    dynamodbReads: ceiling.maxReadRequestUnits * 3600 * (PRICES.dynamodbReadRequest.usd / 1e6),
    logs: perHour * accessLog(ok.apiAccessLog),
    dataTransferOut: (perHour * fullPageBytes * PRICES.dataTransferOut.usd) / GB,
  };
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
  return {
    maxRequestsPerSecond: ceiling.maxRequestsPerSecond,
    validTokensUsd: { ...round(valid), total: sum(valid) },
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
    forgedTokensGatewayAuthorizerUsd: cents(perHour * accessLog(refused.apiAccessLog)),
    /**
     * Requests past the ceiling are throttled (429) and not billed, but each still writes an access log
     * line: up to API Gateway's account throttle (10,000 requests/s by default).
     */
    throttledFloodUsd: cents(
      Math.max(0, MAX_REQUESTS_PER_SECOND - ceiling.maxRequestsPerSecond) * 3600 * accessLog(refused.apiAccessLog),
    ),
  };
}

const round = <T extends Record<string, number>>(lines: T) =>
  Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, Math.round(v * 1e4) / 1e4])) as T;

/** At the default ceiling. */
export const worstHourAtDefault = (inputs: HourInputs) =>
  worstHour(inputs, ceilingFor(DEFAULT_MAX_REQUESTS_PER_SECOND));
