// Sharing through groups, as the default stack deploys it: Cognito access tokens whose
// `cognito:groups` claim names the caller's groups. A caller sees their own plants, then each
// group's (groups by name, plants by id), and nothing else, however hostile the token or cursor.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSigningKey, signToken } from '../../../local/issuer/issuer.ts';
import type { PlantItem } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { nextCursor, nextQuery } from '../../helpers/links.ts';
import { cognitoAccessClaims, type Service, startService } from '../../helpers/service.ts';

const CLIENT_ID = 'app-client-groups';
const LONG_GROUP = `long-${'ü'.repeat(510)}`; // 1,025 bytes
let service: Service;

const plants: PlantItem[] = [
  { owner: 'carol', id: 'c1', name: 'Carol’s cactus' },
  { owner: 'dave', id: 'd1', name: 'Dave’s daisy' },
  { group: 'greenhouse', id: 'g1', name: 'Shared fern', tag: 'fern' },
  { group: 'greenhouse', id: 'g2', name: 'Shared palm' },
  { group: 'Herbs', id: 'h1', name: 'Basil' },
  { group: 'a#b', id: 'x1', name: 'in a#b' },
  { group: 'carol', id: 'x2', name: 'in group carol' },
  { group: 'user#dave', id: 'x3', name: 'in group user#dave' },
  { group: '🌿 jardín', id: 'u1', name: 'Unicode group plant' },
  { group: LONG_GROUP, id: 'l1', name: 'Long group plant' },
  // A user whose sub looks like a group's key still has a partition of their own.
  { owner: 'group#greenhouse', id: 'z1', name: 'Plant of the user named group#greenhouse' },
];
const failureReasons = () =>
  service.logs
    .entries()
    .filter((entry) => 'AuthFailures' in entry)
    .map((entry) => entry.reason);
const names = (reply: { body: unknown }) => (reply.body as { name: string }[]).map((plant) => plant.name);

beforeAll(async () => {
  service = await startService({ AUTH_ISSUER_TYPE: 'cognito', AUTH_AUDIENCE: CLIENT_ID, AUTH_TOKEN_USE: '' });
  await service.seed(plants);
});
afterAll(() => service?.stop());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const as = (sub: string, groups?: unknown, query = '') =>
  service.call(
    httpApiEvent({
      query,
      headers: bearer(service.token(sub, groups === undefined ? {} : { 'cognito:groups': groups })),
    }),
  );

describe('plants shared through groups', () => {
  it('shows a member their own plants first, then each group’s by group name, each by id', async () => {
    const reply = await as('carol', ['greenhouse', 'Herbs']);
    expect(reply.status).toBe(200);
    // Code-unit order: "Herbs" < "greenhouse".
    expect(reply.body).toEqual([
      { name: 'Carol’s cactus' },
      { name: 'Basil' },
      { name: 'Shared fern', tag: 'fern' },
      { name: 'Shared palm' },
    ]);
  });

  it('shows a non-member none of the group’s plants', async () => {
    expect(names(await as('dave'))).toEqual(['Dave’s daisy']);
    expect(names(await as('dave', []))).toEqual(['Dave’s daisy']);
  });

  it('walks own and shared plants with limit=1, each exactly once', async () => {
    const seen: string[] = [];
    let query: string | undefined = 'limit=1';
    for (let pages = 0; query !== undefined && pages < 10; pages++) {
      const reply = await as('carol', ['greenhouse', 'Herbs'], query);
      expect(reply.status).toBe(200);
      seen.push(...names(reply));
      query = nextQuery(reply);
    }
    expect(seen).toEqual(['Carol’s cactus', 'Basil', 'Shared fern', 'Shared palm']);
  });

  it('keeps groups and users apart whatever the names: separators, a group named like a user', async () => {
    expect(names(await as('mallory', ['a#b', 'carol', 'user#dave']))).toEqual([
      'in a#b',
      'in group carol',
      'in group user#dave',
    ]);
    expect(names(await as('group#greenhouse'))).toEqual(['Plant of the user named group#greenhouse']);
    expect(names(await as('mallory', ['#', 'a', 'a#', 'greenhouse#g1']))).toEqual([]);
  });

  it('reads groups with Unicode names and 1 KB names', async () => {
    expect(names(await as('erin', ['🌿 jardín', LONG_GROUP]))).toEqual(['Long group plant', 'Unicode group plant']);
  });

  it('accepts a single string as the groups claim', async () => {
    expect(names(await as('frank', 'Herbs'))).toEqual(['Basil']);
  });

  it('refuses a token naming thousands of groups with 403, never a silent cut', async () => {
    const thousands = Array.from({ length: 3000 }, (_, i) => `g${i}`);
    const reply = await as('carol', ['greenhouse', ...thousands]);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ error: 403, message: expect.stringContaining('100 groups') });
    expect(failureReasons().at(-1)).toBe('too_many_groups');
  });

  it.each([
    ['an object', { greenhouse: true }],
    ['a control character', ['green\u0000house']],
    ['a name over the key limit', ['x'.repeat(2043)]],
  ])('refuses a token whose groups claim holds %s with 401', async (_, groups) => {
    const reply = await as('carol', groups);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/invalid_token/);
    expect(failureReasons().at(-1)).toBe('invalid_groups');
  });
});

describe('hostile tokens and cursors', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (sub: string) => ({
    ...cognitoAccessClaims(sub, CLIENT_ID),
    iss: service.issuer.url,
    sub,
    iat: now(),
    exp: now() + 600,
    'cognito:groups': ['greenhouse'],
  });

  it('answers 401 to a groups claim in a token signed by another key', async () => {
    const token = signToken(createSigningKey(), claims('mallory'), { kid: service.key.kid });
    expect((await service.call(httpApiEvent({ headers: bearer(token) }))).status).toBe(401);
  });

  it('answers 401 to a groups claim in a token of another issuer', async () => {
    const token = service.token('mallory', { iss: 'https://evil.example.com', 'cognito:groups': ['greenhouse'] });
    expect((await service.call(httpApiEvent({ headers: bearer(token) }))).status).toBe(401);
  });

  it('answers 401 to a groups claim in an unsigned token', async () => {
    const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${segment({ alg: 'none' })}.${segment(claims('mallory'))}.`;
    expect((await service.call(httpApiEvent({ headers: bearer(token) }))).status).toBe(401);
  });

  it('refuses (400) a cursor into a group the caller is no longer in, without reading it', async () => {
    const first = await as('carol', ['greenhouse'], 'limit=2');
    expect(names(first)).toEqual(['Carol’s cactus', 'Shared fern']);
    const cursor = nextCursor(first);
    // Carol's next token no longer names the group: the cursor into it is refused.
    const reply = await as('carol', ['Herbs'], `limit=2&cursor=${cursor}`);
    expect(reply).toMatchObject({ status: 400, body: { error: 400, message: expect.stringContaining('cursor') } });
  });

  it('refuses (400) a member’s cursor replayed by another member of the same group', async () => {
    const first = await as('carol', ['greenhouse'], 'limit=2');
    const reply = await as('dave', ['greenhouse'], `limit=2&cursor=${nextCursor(first)}`);
    expect(reply.status).toBe(400);
  });

  it('resumes a cursor into a group the caller is still in when their other groups change', async () => {
    const first = await as('carol', ['greenhouse'], 'limit=2');
    const reply = await as('carol', ['Herbs', 'greenhouse'], `limit=2&cursor=${nextCursor(first)}`);
    expect(names(reply)).toEqual(['Shared palm']);
  });
});
