// What a stored plant may be, for whatever writes one (the data CLI today, a write operation
// tomorrow): its id, its text and its size as DynamoDB counts it. The read path returns what the
// table holds and checks none of it.

import { randomBytes } from 'node:crypto';

/**
 * The largest plant a writer stores, as DynamoDB sizes it for reads (itemBytes); a larger one written
 * elsewhere is still read, within the table's maximum (infra/ceiling.ts). Real plants are under 100 bytes.
 */
export const MAX_PLANT_ITEM_BYTES = 1024;

// Names and tags are one line of text: no line breaks or tabs to upset logs, CSV exports and terminals.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Why `value` can't be a plant's text (a name, a tag, an id: trimmed, at most `maxBytes`), or undefined. */
export function textProblem(value: unknown, maxBytes?: number): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'must be a non-empty string';
  if (maxBytes !== undefined && Buffer.byteLength(value.trim()) > maxBytes) return `is longer than ${maxBytes} bytes`;
  if (CONTROL_CHARACTERS.test(value)) return 'must not contain control characters (line breaks, tabs)';
  return undefined;
}

/** An item's size as DynamoDB counts it: every attribute's name and value, in UTF-8 bytes. */
export const itemBytes = (item: Record<string, string>): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value), 0);

let lastMs = 0;
let sequence = 0;

/**
 * A new plant id, sorting in creation order (the API lists by id) and unique across processes:
 * `<ms since epoch, base 36>-<sequence within that ms>-<random>`, fixed widths, so text order is time order.
 */
export function newPlantId(): string {
  const now = Date.now();
  sequence = now === lastMs ? sequence + 1 : 0;
  lastMs = now;
  return `${now.toString(36).padStart(9, '0')}-${sequence.toString(36).padStart(4, '0')}-${randomBytes(3).toString('hex')}`;
}
