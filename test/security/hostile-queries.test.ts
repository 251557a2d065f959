// Hostile query strings, one table, each row sent through both API flavours (HTTP API's raw
// query string and REST API's decoded multi-value parameters). The basic `limit` and `cursor`
// refusals are in test/handlers/list-plants/list-plants.test.ts; these are the tricks around them.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { encodeCursor } from '../../handlers/lib/cursor.ts';
import { userPartition } from '../../handlers/lib/partitions.ts';
import type { PlantItem } from '../helpers/dynamo.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { nextCursor } from '../helpers/links.ts';
import { restApiEvent } from '../helpers/rest-api-event.ts';
import { type Service, startService } from '../helpers/service.ts';

const PAGE_MAX = 4;
const KB10 = 10 * 1024;
let service: Service;
let cursor = ''; // alice's real cursor after her second plant

const plants: PlantItem[] = [
  ...[1, 2, 3, 4, 5, 6].map((i) => ({ owner: 'alice', id: `p00${i}`, name: `alice-${i}` })),
  ...[1, 2].map((i) => ({ owner: 'bob', id: `p00${i}`, name: `bob-${i}` })),
];

beforeAll(async () => {
  service = await startService({ MAX_PAGE_SIZE: String(PAGE_MAX) });
  await service.seed(plants);
  const first = await service.call(asAlice('http', 'limit=2'));
  cursor = nextCursor(first) ?? '';
  expect(cursor).toMatch(/^[\w-]+\.[\w-]{22}$/);
});
afterAll(() => service?.stop());

const aliceCursor = (afterId: string) => encodeCursor('alice', [userPartition('alice')], { partition: 0, afterId });

function asAlice(flavour: 'http' | 'rest', query: string) {
  const headers = { Authorization: `Bearer ${service.token('alice')}` };
  return flavour === 'http' ? httpApiEvent({ query, headers }) : restApiEvent({ query, headers });
}

/** 200 with this many of alice's plants (and nobody else's). */
const ok = (count: number) => ({ status: 200, count });
/** 400 naming this parameter. */
const bad = (parameter: 'limit' | 'cursor') => ({ status: 400, parameter });
type Expected = ReturnType<typeof ok> | ReturnType<typeof bad>;

const rows: [string, () => string, Expected][] = [
  // limit, encoded
  ['a percent-encoded digit', () => 'limit=%32', ok(2)],
  ['a percent-encoded parameter name', () => 'l%69mit=2', ok(2)],
  ['a plus sign (decodes to a space)', () => 'limit=+2', bad('limit')],
  ['a trailing encoded space', () => 'limit=2%20', bad('limit')],
  ['a leading encoded space', () => 'limit=%202', bad('limit')],
  ['an encoded newline', () => 'limit=2%0A', bad('limit')],
  ['a leading NUL byte', () => 'limit=%002', bad('limit')],
  ['a NUL byte alone', () => 'limit=%00', bad('limit')],
  ['hexadecimal', () => 'limit=0x2', bad('limit')],
  ['a decimal point', () => 'limit=2.0', bad('limit')],
  ['a digit separator', () => 'limit=1_0', bad('limit')],
  ['Arabic-Indic digit two', () => 'limit=%D9%A2', bad('limit')],
  ['fullwidth digit two', () => 'limit=%EF%BC%92', bad('limit')],
  ['a malformed percent escape', () => 'limit=%ZZ', bad('limit')],
  ['truncated UTF-8', () => 'limit=%E0%A4%A', bad('limit')],
  ['minus zero', () => 'limit=-0', bad('limit')],
  ['2^32 + 2 (wraps to 2 as int32)', () => 'limit=4294967298', bad('limit')],
  ['twenty digits', () => 'limit=99999999999999999999', bad('limit')],
  ['12 digits with leading zeros', () => 'limit=000000000002', ok(2)],
  ['13 digits with leading zeros', () => 'limit=0000000000002', bad('limit')],
  ['a 10 KB value', () => `limit=${'1'.repeat(KB10)}`, bad('limit')],
  ['a name without =', () => 'limit', bad('limit')],
  // limit, repeated or disguised
  ['a repeated identical value', () => 'limit=2&limit=2', bad('limit')],
  ['a repeat hidden by encoding', () => 'limit=2&l%69mit=3', bad('limit')],
  ['a semicolon separator', () => 'limit=2;limit=3', bad('limit')],
  ['an encoded ampersand', () => 'limit=2%26limit=3', bad('limit')],
  ['another case (names are case-sensitive)', () => 'limit=2&LIMIT=3', ok(2)],
  ['array syntax (an unknown name)', () => 'limit[]=2', ok(PAGE_MAX)],
  ['empty pairs around a value', () => '&&&==&limit=2&', ok(2)],
  // unknown parameters
  ['an empty name', () => '=2', ok(PAGE_MAX)],
  ['a NUL name', () => '%00=1&limit=2', ok(2)],
  ['a 10 KB unknown value', () => `x=${'v'.repeat(KB10)}`, ok(PAGE_MAX)],
  ['a 10 KB unknown name', () => `${'k'.repeat(KB10)}=1`, ok(PAGE_MAX)],
  ['1,000 unknown parameters', () => Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&'), ok(PAGE_MAX)],
  ['prototype names', () => '__proto__=1&constructor=1&hasOwnProperty=1&limit=2', ok(2)],
  ['parameters naming another owner', () => 'owner=bob&sub=bob&user=bob&partition=bob', ok(PAGE_MAX)],
  // cursor
  ['a real cursor', () => `cursor=${cursor}`, ok(PAGE_MAX)],
  ['a real cursor with its dot percent-encoded', () => `cursor=${cursor.replace('.', '%2E')}`, ok(PAGE_MAX)],
  ['a double-encoded cursor', () => `cursor=${cursor.replace('.', '%252E')}`, bad('cursor')],
  ['a real cursor and a NUL byte', () => `cursor=${cursor}%00`, bad('cursor')],
  ['a real cursor and a space', () => `cursor=${cursor}+`, bad('cursor')],
  ['a real cursor twice', () => `cursor=${cursor}&cursor=${cursor}`, bad('cursor')],
  ['a NUL byte', () => 'cursor=%00', bad('cursor')],
  ['a 10 KB cursor', () => `cursor=${'A'.repeat(KB10)}.${'A'.repeat(22)}`, bad('cursor')],
  ['a real cursor and limit 0', () => `limit=0&cursor=${cursor}`, bad('limit')],
  // Forged cursors: the digest is not secret, so anyone can mint one. They still only move
  // within partitions the caller may read: the cursor's partition is looked up among them.
  [
    'a cursor forged for bob',
    () => `cursor=${encodeCursor('bob', [userPartition('bob')], { partition: 0, afterId: 'p001' })}`,
    bad('cursor'),
  ],
  ['a cursor forged by alice after p003', () => `cursor=${aliceCursor('p003')}`, ok(3)],
  ['a forged cursor naming bob’s key', () => `cursor=${aliceCursor('bob#p001')}`, ok(PAGE_MAX)],
  ['a forged cursor with a NUL id', () => `cursor=${aliceCursor('\u0000')}`, ok(PAGE_MAX)],
  ['a forged cursor with a 1,024-byte id', () => `cursor=${aliceCursor('z'.repeat(1024))}`, ok(0)],
  ['a forged cursor with a 1,025-byte id', () => `cursor=${aliceCursor('z'.repeat(1025))}`, bad('cursor')],
];

describe.each(['http', 'rest'] as const)('hostile query strings (%s API event)', (flavour) => {
  it.each(rows)('%s', async (_, query, expected) => {
    const reply = await service.call(asAlice(flavour, query()));

    expect(reply.status).toBe(expected.status);
    if ('count' in expected) {
      const names = (reply.body as { name: string }[]).map((plant) => plant.name);
      expect(names).toHaveLength(expected.count);
      for (const name of names) expect(name).toMatch(/^alice-/);
    } else {
      expect(reply.body).toEqual({ error: 400, message: expect.stringContaining(`parameter ${expected.parameter}`) });
    }
  });
});
