// Accepted credentials for GET /plants: real RS256 tokens verified against a served JWKS. Every
// refused credential is a row of the one table in test/security/hostile-tokens.test.ts.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { restApiEvent } from '../../helpers/rest-api-event.ts';
import { type Service, startService } from '../../helpers/service.ts';

let service: Service;

beforeAll(async () => {
  service = await startService();
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Monstera', tag: 'tropical' }]);
});
afterAll(() => service?.stop());

const withAuthorization = (authorization: string) => httpApiEvent({ headers: { authorization } });

describe('accepted credentials', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'BeArEr'])('accepts the %s scheme, case-insensitively', async (scheme) => {
    const reply = await service.call(withAuthorization(`${scheme} ${service.token('alice')}`));
    expect(reply).toMatchObject({ status: 200, body: [{ name: 'Monstera', tag: 'tropical' }] });
  });

  it('accepts a short run of spaces between the scheme and the token (RFC 6750: 1*SP)', async () => {
    const reply = await service.call(withAuthorization(`Bearer   ${service.token('alice')}`));
    expect(reply.status).toBe(200);
  });

  it('reads the Authorization header whatever its case in REST API events', async () => {
    const reply = await service.call(restApiEvent({ headers: { AUTHORIZATION: `Bearer ${service.token('alice')}` } }));
    expect(reply.status).toBe(200);
  });

  it('takes the caller from the token, never from the request', async () => {
    const event = httpApiEvent({
      query: 'owner=alice&sub=alice',
      headers: { authorization: `Bearer ${service.token('mallory')}`, 'x-user': 'alice' },
    });
    expect((await service.call(event)).body).toEqual([]);
  });
});
