// Cost per million requests from public on-demand prices (us-east-1, checked November 2025).

import { FUNCTION_MEMORY_MB } from '../infra/function-runtime.ts';

export const PRICES = {
  httpApiPerMillion: 1.0,
  restApiPerMillion: 3.5,
  lambdaRequestsPerMillion: 0.2,
  /** Lambda arm64 compute, per GB-second. */
  lambdaArmPerGbSecond: 0.0000133334,
  /** DynamoDB on-demand, per million read request units (halved to this on 1 November 2024). */
  dynamodbReadPerMillion: 0.125,
};

/** The function's memory setting, as the stack deploys it. */
export const MEMORY_MB = FUNCTION_MEMORY_MB;

export interface CostPerMillion {
  memoryMb: number;
  /** Lambda bills duration rounded up to the next millisecond. */
  billedMs: number;
  readUnitsPerRequest: number;
  lambda: number;
  dynamodb: number;
  httpApiTotal: number;
  restApiTotal: number;
}

export function costPerMillion(durationMs: number, readUnitsPerRequest: number): CostPerMillion {
  const billedMs = Math.max(1, Math.ceil(durationMs));
  const gbSeconds = (MEMORY_MB / 1024) * (billedMs / 1000) * 1_000_000;
  const lambda = PRICES.lambdaRequestsPerMillion + gbSeconds * PRICES.lambdaArmPerGbSecond;
  const dynamodb = readUnitsPerRequest * PRICES.dynamodbReadPerMillion;
  const usd = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    memoryMb: MEMORY_MB,
    billedMs,
    readUnitsPerRequest,
    lambda: usd(lambda),
    dynamodb: usd(dynamodb),
    httpApiTotal: usd(PRICES.httpApiPerMillion + lambda + dynamodb),
    restApiTotal: usd(PRICES.restApiPerMillion + lambda + dynamodb),
  };
}
