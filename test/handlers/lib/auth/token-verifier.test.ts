// Property test (fast-check) of the real verifier with its cache of verified tokens, against the
// TLS-served JWKS: it accepts exactly what a verify with the keys it currently holds accepts (a
// model without a cache), across key withdrawals at the issuer, clock moves and refetches: a
// withdrawn key stops verifying once refetched, whether its tokens were cached or not.
//
// Deterministic: a fixed seed unless FC_SEED is set; FC_RUNS scales the run counts; a failure
// prints the seed and path to replay with FC_SEED and FC_PATH.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { JWKS_MAX_AGE_MS } from '../../../../handlers/lib/auth/jwks-cache.ts';
import { createTokenVerifier } from '../../../../handlers/lib/auth/token-verifier.ts';
import { readConfig } from '../../../../handlers/lib/config.ts';
import { createSigningKey, type SigningKey, signToken } from '../../../../local/issuer/issuer.ts';
import { fakeDateAndTimers } from '../../../helpers/clock.ts';
import { AUDIENCE, type Service, startService } from '../../../helpers/service.ts';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const SCALE = Number(process.env.FC_RUNS ?? 1);
const PATH = process.env.FC_PATH;
const T0 = 1_800_000_000_000;
/** aws-jwt-verify's SimplePenaltyBox: no fetch for an unknown kid for 10 s after one that missed. */
const PENALTY_MS = 10_000;

describe('the verifier with its token cache', () => {
  let service: Service;
  const keys: SigningKey[] = [];
  beforeAll(async () => {
    service = await startService();
    keys.push(service.key, createSigningKey(), createSigningKey());
  });
  afterAll(() => service?.stop());
  // Date and the timers are faked, so tokens, the library's exp check, both caches and its penalty
  // box share one clock that moves only when the model moves it. Sockets keep real time.
  beforeEach(() => fakeDateAndTimers(T0));
  afterEach(() => {
    jest.useRealTimers();
  });

  type Step =
    | { kind: 'verify'; token: number }
    | { kind: 'withdraw'; key: number }
    | { kind: 'tick'; seconds: number }
    | { kind: 'age' };
  const stepArb: fc.Arbitrary<Step> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('verify' as const), token: fc.nat(8) }), weight: 5 },
    fc.record({ kind: fc.constant('withdraw' as const), key: fc.integer({ min: 1, max: 2 }) }),
    fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 0, max: 900 }) }),
    fc.record({ kind: fc.constant('age' as const) }),
  );

  it('accepts exactly what a verify with the currently cached keys accepts, across withdrawals and refetches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 60, max: 86_400 }), { minLength: 9, maxLength: 9 }),
        fc.array(stepArb, { minLength: 10, maxLength: 40 }),
        async (lifetimes, steps) => {
          jest.setSystemTime(T0);
          service.issuer.keys = [...keys];
          const verify = createTokenVerifier(readConfig().auth);
          await verify.hydrated;
          // Nine tokens, three per key, minted now: repeated verifies of one token hit the cache.
          const issued = Math.floor(T0 / 1000);
          const tokens = lifetimes.map((lifetime, i) => ({
            key: i % 3,
            exp: issued + lifetime,
            jwt: signToken(keys[i % 3] as SigningKey, {
              iss: service.issuer.url,
              aud: AUDIENCE,
              sub: `user-${i}`,
              token_use: 'access',
              iat: issued,
              exp: issued + lifetime,
            }),
          }));
          // The model: keys at the issuer, keys the verifier holds, when it fetched them, and
          // aws-jwt-verify's penalty box (after an unknown kid, no fetch for one for 10 s), whose
          // timer runs on the faked clock: it ends exactly when the model's time says.
          const served = new Set([0, 1, 2]);
          let cached = new Set(served);
          let fetchedAt = T0;
          let penaltyEndsAt = Number.NEGATIVE_INFINITY;

          for (const step of steps) {
            if (step.kind === 'withdraw') {
              served.delete(step.key);
              service.issuer.keys = keys.filter((_, i) => served.has(i));
            } else if (step.kind === 'tick' || step.kind === 'age') {
              jest.advanceTimersByTime(step.kind === 'age' ? JWKS_MAX_AGE_MS : step.seconds * 1000);
            } else {
              const token = tokens[step.token] ?? tokens[0];
              if (!token) continue;
              const stale = Date.now() - fetchedAt >= JWKS_MAX_AGE_MS;
              let known = cached.has(token.key);
              const penalty = Date.now() < penaltyEndsAt;
              if (!known && !penalty) {
                cached = new Set(served);
                fetchedAt = Date.now();
                known = cached.has(token.key);
                if (!known) penaltyEndsAt = Date.now() + PENALTY_MS;
              }
              const accepted = known && Date.now() <= token.exp * 1000;
              const result = await verify(token.jwt).then(
                (payload) => payload.sub,
                () => 'refused',
              );
              expect(result).toBe(accepted ? `user-${step.token}` : 'refused');
              await verify.keys.refreshing;
              if (stale) {
                cached = new Set(served);
                fetchedAt = Date.now();
              }
            }
          }
        },
      ),
      { seed: SEED, numRuns: 40 * SCALE, ...(PATH && { path: PATH }) },
    );
  });
});
