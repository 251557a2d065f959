// The issuer is matched exactly as configured: Auth0 and others end `iss` in a slash, and a
// configuration copied from their discovery document must accept their tokens.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Service, startService } from '../../helpers/service.ts';

const ISSUER = 'https://tenant.example.com/';

let service: Service;

beforeAll(async () => {
  // The keys stay at the served JWKS (AUTH_JWKS_URI), so only the issuer string differs.
  service = await startService({ AUTH_ISSUER: ISSUER });
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Monstera' }]);
});
afterAll(() => service?.stop());

const call = (token: string) => service.call(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));

describe('an issuer whose iss ends in a slash', () => {
  it('accepts tokens whose iss is exactly the configured issuer, trailing slash included', async () => {
    const reply = await call(service.token('alice', { iss: ISSUER }));
    expect(reply).toMatchObject({ status: 200, body: [{ name: 'Monstera' }] });
  });

  it('refuses tokens whose iss differs from it, even by the slash alone', async () => {
    const reply = await call(service.token('alice', { iss: 'https://tenant.example.com' }));
    expect(reply).toMatchObject({ status: 401, body: { error: 401 } });
  });
});
