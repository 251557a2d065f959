// Opaque pagination cursors, bound to the caller who received them.

import { createHash, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from './errors.ts';

// The partition read is always the caller's own `sub` (from the verified token), so a cursor
// only ever carries a position inside that partition. The digest binds it to the caller too:
// a cursor replayed by another user, or damaged, is refused instead of silently restarting.
// It is a plain hash, not a keyed MAC: a caller can mint a cursor for their own partition,
// which lets them start anywhere in their own plants and nowhere else.
const MAX_CURSOR_LENGTH = 2048;
/** DynamoDB's limit for a sort key value, so a forged key can never reach the store. */
const MAX_KEY_BYTES = 1024;
const CURSOR_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/;
const INVALID_CURSOR = 'Query parameter cursor is invalid: use the Link header of a previous page';

export function encodeCursor(owner: string, plantId: string): string {
  return `${Buffer.from(plantId, 'utf8').toString('base64url')}.${digest(owner, plantId)}`;
}

/** Returns the plant id to resume after, or undefined for the first page. */
export function decodeCursor(values: readonly string[] | undefined, owner: string): string | undefined {
  if (values === undefined) return undefined;
  const [raw] = values;
  if (values.length !== 1 || raw === undefined || raw.length > MAX_CURSOR_LENGTH || !CURSOR_SHAPE.test(raw)) {
    throw new BadRequestError(INVALID_CURSOR);
  }
  const [payload = '', mac = ''] = raw.split('.');
  const plantId = Buffer.from(payload, 'base64url').toString('utf8');
  const expected = Buffer.from(digest(owner, plantId));
  const given = Buffer.from(mac);
  const valid =
    plantId.length > 0 &&
    Buffer.byteLength(plantId) <= MAX_KEY_BYTES &&
    given.length === expected.length &&
    timingSafeEqual(given, expected);
  if (!valid) throw new BadRequestError(INVALID_CURSOR);
  return plantId;
}

function digest(owner: string, plantId: string): string {
  return createHash('sha256')
    .update(`plant-store/cursor/v1\0${owner}\0${plantId}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
