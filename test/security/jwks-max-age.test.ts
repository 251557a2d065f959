// A key the issuer withdraws must stop verifying in a warm container once the cached key set is
// older than its maximum age, without any request failing or waiting for the refetch. A key
// rotation on the local issuer (real TLS JWKS, real RS256 tokens), with the clock moved by jest.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { authenticate } from '../../handlers/lib/auth/authenticate.ts';
import { JWKS_MAX_AGE_MS, JWKS_RETRY_AFTER_MS } from '../../handlers/lib/auth/jwks-cache.ts';
import { createTokenVerifier, type PrefetchingTokenVerifier } from '../../handlers/lib/auth/token-verifier.ts';
import { readConfig } from '../../handlers/lib/config.ts';
import { createSigningKey, type SigningKey, signToken } from '../../local/issuer/issuer.ts';
import { fakeDateOnly } from '../helpers/clock.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { AUDIENCE, type Service, startService } from '../helpers/service.ts';

let service: Service;
beforeAll(async () => {
  service = await startService();
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Fern' }]);
});
afterAll(() => service?.stop());

beforeEach(() => fakeDateOnly());
afterEach(() => {
  jest.useRealTimers();
});

const NO_SCOPE_OR_GROUPS = { requiredScope: undefined, groupsClaim: undefined };
const later = (ms: number) => jest.setSystemTime(Date.now() + ms);
const tokenBy = (key: SigningKey, sub = 'alice') => {
  const now = Math.floor(Date.now() / 1000);
  return signToken(key, { iss: service.issuer.url, aud: AUDIENCE, sub, token_use: 'access', iat: now, exp: now + 600 });
};

async function freshVerifier(): Promise<PrefetchingTokenVerifier> {
  const verify = createTokenVerifier(readConfig().auth);
  await verify.hydrated;
  return verify;
}

describe('the JWKS maximum age', () => {
  it('makes the function refuse a key withdrawn at the issuer once its cached key set is an hour old', async () => {
    const withdrawn = service.key;
    const rotated = createSigningKey();
    const status = async (key: SigningKey) =>
      (await service.call(httpApiEvent({ headers: { authorization: `Bearer ${tokenBy(key)}` } }))).status;
    expect(await status(withdrawn)).toBe(200);
    service.issuer.keys = [rotated];
    expect(await status(withdrawn)).toBe(200);

    later(JWKS_MAX_AGE_MS);
    // The request that notices the age is still served; the refetch it starts lands after it, however
    // long that takes here (a refetch that never lands is this test's timeout).
    expect(await status(withdrawn)).toBe(200);
    let answer = 200;
    while (answer === 200) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      answer = await status(withdrawn);
    }
    expect(answer).toBe(401);
    expect(await status(rotated)).toBe(200);
  });

  it('stops trusting a withdrawn key after one background refetch, and no request fails meanwhile', async () => {
    const original = service.key;
    const rotated = createSigningKey();
    service.issuer.keys = [original];
    const verify = await freshVerifier();
    const cachedToken = tokenBy(original);
    expect((await verify(cachedToken)).sub).toBe('alice');

    service.issuer.keys = [rotated];
    const fetches = service.issuer.requests;
    later(JWKS_MAX_AGE_MS - 1);
    // Within the maximum age the cached set is used as is: no fetch, the withdrawn key still verifies.
    expect((await verify(tokenBy(original, 'bob'))).sub).toBe('bob');
    expect(service.issuer.requests).toBe(fetches);

    later(1);
    // The request that finds the set too old is verified with it, and starts the refetch.
    expect((await verify(tokenBy(original, 'carol'))).sub).toBe('carol');
    await verify.keys.refreshing;
    expect(service.issuer.requests).toBe(fetches + 1);
    expect(verify.keys.fresh).toBe(true);

    // Now the withdrawn key is refused, even for a token that verified (and was cached) before.
    for (const token of [cachedToken, tokenBy(original, 'dave')]) {
      await expect(authenticate(`Bearer ${token}`, verify, NO_SCOPE_OR_GROUPS)).rejects.toMatchObject({
        status: 401,
        reason: 'unknown_key',
      });
    }
    expect((await verify(tokenBy(rotated))).sub).toBe('alice');
  });

  it('keeps verifying with the cached keys while the issuer is down, retrying the refetch every minute', async () => {
    service.issuer.keys = [service.key];
    const verify = await freshVerifier();
    service.issuer.available = false;
    try {
      const fetches = service.issuer.requests;
      later(JWKS_MAX_AGE_MS);
      expect((await verify(tokenBy(service.key))).sub).toBe('alice');
      await verify.keys.refreshing;
      // aws-jwt-verify's fetcher tries twice.
      const failedAttempt = service.issuer.requests - fetches;
      expect(failedAttempt).toBeGreaterThanOrEqual(1);
      expect(verify.keys.fresh).toBe(false);

      expect((await verify(tokenBy(service.key, 'bob'))).sub).toBe('bob');
      expect(service.issuer.requests - fetches).toBe(failedAttempt);

      service.issuer.available = true;
      later(JWKS_RETRY_AFTER_MS);
      expect((await verify(tokenBy(service.key, 'carol'))).sub).toBe('carol');
      await verify.keys.refreshing;
      expect(verify.keys.fresh).toBe(true);
    } finally {
      service.issuer.available = true;
    }
  });
});
