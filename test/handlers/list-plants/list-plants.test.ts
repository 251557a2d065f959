// The whole handler against dynalite and a TLS-served JWKS, with real RS256 tokens.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PlantItem } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { nextCursor, nextQuery, nextTarget } from '../../helpers/links.ts';
import { restApiEvent } from '../../helpers/rest-api-event.ts';
import { type Service, startService } from '../../helpers/service.ts';

const PAGE_MAX = 5;
let service: Service;

// Three users with interleaved ids, so a query that leaked across partitions would show it.
const plants: PlantItem[] = [];
for (let i = 0; i < 12; i++) {
  for (const owner of ['alice', 'bob', 'carol']) {
    if (owner === 'carol' && i >= 2) continue;
    plants.push({
      owner,
      id: `p${String(i).padStart(3, '0')}`,
      name: `${owner}-plant-${i}`,
      ...(i % 2 === 0 && { tag: `tag-${i}` }),
      secretNote: `internal-${owner}-${i}`,
    });
  }
}
const expected = (owner: string) =>
  plants.filter((p) => p.owner === owner).map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }));

const asUser = (sub: string, query = '') =>
  httpApiEvent({ query, headers: { authorization: `Bearer ${service.token(sub)}` } });

beforeAll(async () => {
  service = await startService({ MAX_PAGE_SIZE: String(PAGE_MAX) });
  await service.seed(plants);
});
afterAll(() => service?.stop());

/** Follows `next` links from the first page and returns every plant seen. */
async function walk(sub: string, limit: number) {
  const seen: unknown[] = [];
  let query = `limit=${limit}`;
  for (let pages = 0; pages < 100; pages++) {
    const reply = await service.call(asUser(sub, query));
    expect(reply.status).toBe(200);
    seen.push(...(reply.body as unknown[]));
    const next = nextQuery(reply);
    if (next === undefined) return seen;
    query = next;
  }
  throw new Error('pagination did not end');
}

describe('GET /plants', () => {
  it("returns only the caller's plants, with name and tag and nothing else", async () => {
    const reply = await service.call(asUser('carol'));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(expected('carol'));
    expect(JSON.stringify(reply.body)).not.toContain('internal');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('sends X-Content-Type-Options: nosniff with every answer, success or error', async () => {
    for (const event of [asUser('carol'), asUser('carol', 'limit=0'), httpApiEvent()]) {
      expect((await service.call(event)).headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('returns an empty array to a caller who owns no plants', async () => {
    const reply = await service.call(asUser('dave'));
    expect(reply).toMatchObject({ status: 200, body: [] });
    expect(reply.headers.link).toBeUndefined();
  });

  it.each([1, 2, 3, 5, 6, 1000])(
    'visits every plant exactly once following next links with limit=%i',
    async (limit) => {
      for (const owner of ['alice', 'bob', 'carol']) {
        expect(await walk(owner, limit)).toEqual(expected(owner));
      }
    },
  );

  it('returns at most limit plants and links to the rest', async () => {
    const reply = await service.call(asUser('alice', 'limit=2'));
    expect(reply.body).toEqual(expected('alice').slice(0, 2));
    expect(reply.headers.link).toMatch(
      /^<https:\/\/api1234567\.execute-api\.eu-west-1\.amazonaws\.com\/plants\?limit=2&cursor=[\w.-]+>; rel="next"$/,
    );
  });

  it('clamps limit to the page maximum and pages without it', async () => {
    for (const query of ['limit=2147483647', '']) {
      const reply = await service.call(asUser('alice', query));
      expect(reply.body).toEqual(expected('alice').slice(0, PAGE_MAX));
      expect(reply.headers.link).toContain(`limit=${PAGE_MAX}&`);
    }
  });

  it('does not link to an empty page when the last page is exactly full', async () => {
    const reply = await service.call(asUser('carol', 'limit=2'));
    expect(reply.body).toEqual(expected('carol'));
    expect(reply.headers.link).toBeUndefined();
  });

  it('serves REST API (payload 1.0) events the same way', async () => {
    const event = restApiEvent({ query: 'limit=1', headers: { Authorization: `Bearer ${service.token('carol')}` } });
    const reply = await service.call(event);
    expect(reply.body).toEqual(expected('carol').slice(0, 1));
    expect(nextTarget(reply)).toMatch(
      /^https:\/\/rest123456\.execute-api\.eu-west-1\.amazonaws\.com\/prod\/plants\?limit=1&cursor=/,
    );
  });

  it.each(['', 'abc', '1.5', '1e3', '-1', '0', '2147483648', '%2B5', '5%00'])(
    'answers 400 naming limit for limit=%s',
    async (value) => {
      const reply = await service.call(asUser('alice', `limit=${value}`));
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: 400, message: expect.stringMatching(/limit.*1 to 2147483647/) });
    },
  );

  it('answers 400 to a repeated limit', async () => {
    const reply = await service.call(asUser('alice', 'limit=1&limit=1'));
    expect(reply.status).toBe(400);
  });

  it("refuses another caller's cursor instead of reading their partition", async () => {
    const first = await service.call(asUser('alice', 'limit=1'));
    const cursor = nextCursor(first);
    const reply = await service.call(asUser('bob', `limit=1&cursor=${cursor}`));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 400, message: expect.stringContaining('cursor') });
  });

  it.each(['garbage', 'AAAA.AAAAAAAAAAAAAAAAAAAAAA', '', 'x'.repeat(3000)])(
    'answers 400 to cursor %#',
    async (cursor) => {
      const reply = await service.call(asUser('alice', `cursor=${cursor}`));
      expect(reply.status).toBe(400);
    },
  );

  it('ignores unknown query parameters', async () => {
    const reply = await service.call(asUser('carol', 'owner=alice&sub=alice&foo=bar'));
    expect(reply.body).toEqual(expected('carol'));
  });
});
