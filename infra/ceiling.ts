// The bill ceiling (-c maxRequestsPerSecond=N): stage throttle, concurrency and table maximum from one number.

import { type ContextReader, flag, integer, SettingsError } from './context-values.ts';

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
 * The largest plant the data CLI writes (local/data/plant-row.ts): its attributes' names and values
 * (owner key, id, name, tag) as DynamoDB sizes an item for reads. Real plants are under 100 bytes;
 * one written outside the data CLI may be up to 400 KB, and is then refused by the table's maximum (503).
 */
export const MAX_PLANT_ITEM_BYTES = 1024;
/**
 * What the largest page reads, as the function reads it (handlers/lib/config.ts, plants.ts; the test
 * checks they agree): a Query reads `Limit` items whatever the page's byte budget, so a page reads
 * its own partition's items and then at most a whole page more from a cached group read, in at most
 * 10 Queries, each rounded up to 4 KB and halved (eventually consistent).
 */
export const LARGEST_PAGE = { plants: 100, queries: 10, itemBytes: MAX_PLANT_ITEM_BYTES };
/**
 * Read request units one request may use at the ceiling: the largest page's, so that the table's
 * maximum refuses no page the stage admits (30.5; a page of real plants reads 1 to 1.5).
 */
export const READ_UNITS_PER_REQUEST =
  0.5 * (Math.ceil(((2 * LARGEST_PAGE.plants + 1) * LARGEST_PAGE.itemBytes) / 4096) + LARGEST_PAGE.queries);
/**
 * DynamoDB's default quota of read units a second per on-demand table (Service Quotas, "Table-level
 * read throughput limit"): a table maximum above it may not deploy. Raised in Service Quotas, raise it here.
 */
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
