// Opaque pagination cursors: a position among the caller's partitions, bound to the caller.

import { createHash, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from './errors.ts';
import { MAX_SORT_KEY_BYTES } from './partitions.ts';
import type { Position } from './plants.ts';

// A cursor names its partition by a short hash of the partition key and holds the plant id to
// resume after (none: the partition's start). Decoding looks the hash up among the partitions the
// caller may read *now* (their own, and their token's groups), so a cursor into anything else —
// another user, a group the caller left — matches nothing and is refused before any read. The
// digest binds the cursor to the caller's sub, the partition and the id: a cursor replayed by
// another user, or edited, is refused instead of silently restarting. It is a plain hash, not a
// keyed MAC: a caller can mint a cursor for a partition they may read, and nothing else.
const MAX_CURSOR_LENGTH = 2048;
const PARTITION_HASH_BYTES = 8;
const CURSOR_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/;
const INVALID_CURSOR = 'Query parameter cursor is invalid: use the Link header of a previous page';

export function encodeCursor(sub: string, partitions: readonly string[], position: Position): string {
  const partition = partitions[position.partition] ?? '';
  const id = position.afterId ?? '';
  const payload = Buffer.concat([partitionHash(partition), Buffer.from(id, 'utf8')]);
  return `${payload.toString('base64url')}.${digest(sub, partition, id)}`;
}

/** Returns where to resume among `partitions` (the caller's, in listing order); the start without a cursor. */
export function decodeCursor(
  values: readonly string[] | undefined,
  sub: string,
  partitions: readonly string[],
): Position {
  if (values === undefined) return { partition: 0, afterId: undefined };
  const [raw] = values;
  if (values.length !== 1 || raw === undefined || raw.length > MAX_CURSOR_LENGTH || !CURSOR_SHAPE.test(raw)) {
    throw new BadRequestError(INVALID_CURSOR);
  }
  const [encoded = '', mac = ''] = raw.split('.');
  const payload = Buffer.from(encoded, 'base64url');
  const hash = payload.subarray(0, PARTITION_HASH_BYTES);
  const idBytes = payload.subarray(PARTITION_HASH_BYTES);
  const index = partitions.findIndex((partition) => partitionHash(partition).equals(hash));
  const id = idBytes.toString('utf8');
  const expected = Buffer.from(digest(sub, partitions[index] ?? '', id));
  const given = Buffer.from(mac);
  const valid =
    index >= 0 &&
    hash.length === PARTITION_HASH_BYTES &&
    // Within DynamoDB's sort key limit, so a forged id can never reach the store as a 500.
    idBytes.length <= MAX_SORT_KEY_BYTES &&
    // Bytes that are not UTF-8 would decode to another id than the one the digest was made for.
    Buffer.from(id, 'utf8').equals(idBytes) &&
    given.length === expected.length &&
    timingSafeEqual(given, expected);
  if (!valid) throw new BadRequestError(INVALID_CURSOR);
  return { partition: index, afterId: id === '' ? undefined : id };
}

function partitionHash(partition: string): Buffer {
  return createHash('sha256').update(`plant-store/partition\0${partition}`).digest().subarray(0, PARTITION_HASH_BYTES);
}

function digest(sub: string, partition: string, id: string): string {
  return createHash('sha256')
    .update(`plant-store/cursor/v2\0${sub}\0${partition}\0${id}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
