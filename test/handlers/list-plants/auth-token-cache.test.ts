// A token seen before may skip its signature check, never the checks after it: the subject, the
// required scope and the groups claim are read again on every request.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Service, startService } from '../../helpers/service.ts';

const SCOPE = 'plants:read';
let service: Service;

beforeAll(async () => {
  service = await startService({ AUTH_REQUIRED_SCOPE: SCOPE, AUTH_GROUPS_CLAIM: 'groups' });
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Fern' }]);
});
afterAll(() => service?.stop());

const call = (token: string) => service.call(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));

describe('a token sent again', () => {
  it.each([
    ['without the required scope', { scope: 'other' }, 403],
    ['with a groups claim of the wrong shape', { scope: SCOPE, groups: [42] }, 401],
    ['without a usable subject', { scope: SCOPE, sub: '' }, 401],
  ])('is refused again when sent %s', async (_, claims, status) => {
    const token = service.token('alice', claims);
    for (let i = 0; i < 3; i++) expect((await call(token)).status).toBe(status);
  });

  it('is served again when valid', async () => {
    const token = service.token('alice', { scope: SCOPE });
    for (let i = 0; i < 3; i++) expect(await call(token)).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
  });
});
