// Plant ids that sort in creation order (the API lists by id), unique across processes.

import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/** `<ms since epoch, base 36>-<sequence within that ms>-<random>`: fixed widths, so text order is time order. */
export function newPlantId(): string {
  const now = Date.now();
  sequence = now === lastMs ? sequence + 1 : 0;
  lastMs = now;
  return `${now.toString(36).padStart(9, '0')}-${sequence.toString(36).padStart(4, '0')}-${randomBytes(3).toString('hex')}`;
}
