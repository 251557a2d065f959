// PUBLIC_BASE_URL: operators who want absolute next links name the base the clients use.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from './helpers/events.ts';
import { type Service, startService } from './helpers/service.ts';

let service: Service;
beforeAll(async () => {
  service = await startService({ PUBLIC_BASE_URL: 'https://api.example.com/v1/' });
  await service.seed([1, 2].map((i) => ({ owner: 'alice', id: `p${i}`, name: `plant ${i}` })));
});
afterAll(() => service.stop());

describe('PUBLIC_BASE_URL', () => {
  it('makes next links absolute under it, whatever the event says', async () => {
    const event = httpApiEvent({ query: 'limit=1', headers: { authorization: `Bearer ${service.token('alice')}` } });
    const reply = await service.call(event);
    expect(reply.headers.link).toMatch(
      /^<https:\/\/api\.example\.com\/v1\/plants\?limit=1&cursor=[\w.-]+>; rel="next"$/,
    );
  });
});
