// A deployment that requires a scope answers 403 insufficient_scope to tokens without it.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Service, startService } from '../../helpers/service.ts';

let service: Service;

beforeAll(async () => {
  service = await startService({ AUTH_REQUIRED_SCOPE: 'plants:read' });
});
afterAll(() => service?.stop());

const call = (claims: Record<string, unknown>) =>
  service.call(httpApiEvent({ headers: { authorization: `Bearer ${service.token('alice', claims)}` } }));

describe('AUTH_REQUIRED_SCOPE', () => {
  it('answers 200 when the token carries the scope among others', async () => {
    expect((await call({ scope: 'openid plants:read' })).status).toBe(200);
  });

  it.each([[{}], [{ scope: 'openid profile' }], [{ scope: 'plants:reader' }]])(
    'answers 403 insufficient_scope otherwise (%j)',
    async (claims) => {
      const reply = await call(claims);
      expect(reply.status).toBe(403);
      expect(reply.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="plants:read"');
      expect(reply.body).toEqual({ error: 403, message: expect.stringContaining('scope') });
    },
  );

  it('still answers 401 to an expired token that carries the scope', async () => {
    const reply = await call({ scope: 'plants:read', exp: Math.floor(Date.now() / 1000) - 60 });
    expect(reply.status).toBe(401);
  });
});
