// The bill ceiling (-c maxRequestsPerSecond=N): stage throttle, concurrency and table maximum from one number.

import { MAX_PLANT_ITEM_BYTES } from '../handlers/lib/plant-item.ts';
import { type ContextReader, flag, integer, SettingsError } from './context-values.ts';

/** The traffic lab/cost/cost.ts prices per million, and the default ceiling: they are the same number. */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 100;
/** API Gateway's default account-wide throttle (per Region): a stage cannot usefully ask for more. */
export const MAX_REQUESTS_PER_SECOND = 10_000;
/** 250 ms per request per environment at the ceiling: far above a warm request's billed duration (lab/docs/performance.md), room for a cold start. */
export const REQUESTS_PER_ENVIRONMENT = 4;
/** Few environments still take a burst of clients that all open the app at once. */
export const MIN_CONCURRENCY = 10;
/**
 * What the largest page reads (handlers/lib/config.ts, plants.ts; a test checks they agree): its partition's
 * page, then at most a page more from a cached group read, in at most 10 Queries of 4 KB units, halved.
 */
export const LARGEST_PAGE = { plants: 100, queries: 10, itemBytes: MAX_PLANT_ITEM_BYTES };
/** Read units one request may use: the largest page's, so the table's maximum refuses no page the stage admits. */
export const READ_UNITS_PER_REQUEST =
  0.5 * (Math.ceil(((2 * LARGEST_PAGE.plants + 1) * LARGEST_PAGE.itemBytes) / 4096) + LARGEST_PAGE.queries);
/** DynamoDB's default per-table read quota: a maximum above it may not deploy (raise it here with the quota). */
export const TABLE_READ_UNITS_QUOTA = 40_000;
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
    maxReadRequestUnits: Math.ceil(maxRequestsPerSecond * READ_UNITS_PER_REQUEST),
    maxWriteRequestUnits: maxRequestsPerSecond * WRITE_UNITS_PER_REQUEST_PER_SECOND,
  };
}

export function readCeiling(context: ContextReader): Ceiling {
  const rps = integer(context, 'maxRequestsPerSecond', DEFAULT_MAX_REQUESTS_PER_SECOND, 1, MAX_REQUESTS_PER_SECOND);
  const most = Math.floor(TABLE_READ_UNITS_QUOTA / READ_UNITS_PER_REQUEST);
  if (rps > most) {
    throw new SettingsError(
      `maxRequestsPerSecond=${rps} would set the table's maximum to ${Math.ceil(rps * READ_UNITS_PER_REQUEST)} read ` +
        `units a second (${READ_UNITS_PER_REQUEST} for the largest page, infra/ceiling.ts), past DynamoDB's default ` +
        `quota of ${TABLE_READ_UNITS_QUOTA} per table: deploy at most ${most}, or raise the quota in Service Quotas ` +
        'first and TABLE_READ_UNITS_QUOTA with it',
    );
  }
  return { ...ceilingFor(rps), reserveConcurrency: flag(context, 'reserveConcurrency') };
}
