// The bill ceiling: one setting, `-c maxRequestsPerSecond=N`, from which the stage throttle, the
// function's concurrency and the table's maximum on-demand throughput all follow, so they agree
// with each other and with the traffic the cost model prices. Plain numbers, no CDK: the stack and
// the benchmark's worst-hour figures read the same rule.

import { type ContextReader, flag, integer } from './context-values.ts';

/** The traffic bench/cost/cost.ts prices per million, and the default ceiling: they are the same number. */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 100;
/** API Gateway's default account-wide throttle (per Region): a stage cannot usefully ask for more. */
export const MAX_REQUESTS_PER_SECOND = 10_000;
/**
 * Each execution environment may spend up to 250 ms per request at the ceiling: 13 times the
 * function's mean billed duration measured over a 10 ms round trip (18.7 ms), room for a cold start.
 */
export const REQUESTS_PER_ENVIRONMENT = 4;
/** Few environments still take a burst of clients that all open the app at once. */
export const MIN_CONCURRENCY = 10;
/**
 * Read request units one request may use on average at the ceiling: a default page (100 real-shaped
 * plants, ~8 KB read) is 1 to 1.5 RRU; 20 leaves room for pages of long plants (the 64 KiB page byte
 * budget of them reads up to ~160 KB). Past it the table refuses (503): the hard cap on the hour's reads.
 */
export const READ_UNITS_PER_REQUEST = 20;
/** Writes come from the data CLI's imports, not from requests: 10 items a second per request/s. */
export const WRITE_UNITS_PER_REQUEST_PER_SECOND = 10;

export interface Ceiling {
  maxRequestsPerSecond: number;
  /** Stage throttle: steady rate = the ceiling; burst = the environments that may run at once. */
  throttle: { rateLimit: number; burstLimit: number };
  /** Environments that may run at once; reserved from the account's pool only with `reserveConcurrency`. */
  concurrency: number;
  /** Opt in: the function's reserved concurrency is `concurrency` (taken from the account's unreserved pool). */
  reserveConcurrency: boolean;
  /** The table's maximum on-demand throughput (MaxOnDemandThroughputExceeded past it). */
  maxReadRequestUnits: number;
  maxWriteRequestUnits: number;
}

/** Everything that follows from N requests a second. */
export function ceilingFor(maxRequestsPerSecond: number): Omit<Ceiling, 'reserveConcurrency'> {
  const concurrency = Math.max(MIN_CONCURRENCY, Math.ceil(maxRequestsPerSecond / REQUESTS_PER_ENVIRONMENT));
  return {
    maxRequestsPerSecond,
    throttle: { rateLimit: maxRequestsPerSecond, burstLimit: concurrency },
    concurrency,
    maxReadRequestUnits: maxRequestsPerSecond * READ_UNITS_PER_REQUEST,
    maxWriteRequestUnits: maxRequestsPerSecond * WRITE_UNITS_PER_REQUEST_PER_SECOND,
  };
}

export function readCeiling(context: ContextReader): Ceiling {
  const rps = integer(context, 'maxRequestsPerSecond', DEFAULT_MAX_REQUESTS_PER_SECOND, 1, MAX_REQUESTS_PER_SECOND);
  return { ...ceilingFor(rps), reserveConcurrency: flag(context, 'reserveConcurrency') };
}
