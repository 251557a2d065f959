// Parsing of the `limit` query parameter: a base-10 int32 from 1 up, clamped to the page size.

import { BadRequestError } from './errors.ts';

export const LIMIT_MAX = 2147483647;
const LIMIT_MESSAGE = `Query parameter limit must be a single base-10 integer from 1 to ${LIMIT_MAX}`;

/**
 * Returns the page size to read. Without `limit`, a full page. Above the page maximum the value
 * is clamped rather than refused, so clients may ask for "everything" and follow `next` links.
 */
export function parseLimit(values: readonly string[] | undefined, maxPageSize: number): number {
  if (values === undefined) return maxPageSize;
  const [raw] = values;
  if (values.length !== 1 || raw === undefined || !/^[0-9]{1,12}$/.test(raw)) {
    throw new BadRequestError(LIMIT_MESSAGE);
  }
  // At most 12 digits, so Number() is exact and the range check below is sound.
  const value = Number(raw);
  if (value < 1 || value > LIMIT_MAX) throw new BadRequestError(LIMIT_MESSAGE);
  return Math.min(value, maxPageSize);
}
