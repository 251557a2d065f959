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
import { fakeDateOnly } from '../../../helpers/clock.ts';
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
  // Only Date is faked, so tokens, the library's exp check and both caches share one clock.
  beforeEach(() => fakeDateOnly(T0));
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
          // aws-jwt-verify's penalty box (after an unknown kid, no fetch for one for 10 s).
          const served = new Set([0, 1, 2]);
          let cached = new Set(served);
          let fetchedAt = T0;
          let penalty = false;
          // The penalty box keeps a real 10 s timer (only Date is faked): it began between these
          // two real instants. A run slow enough to come near its end waits until it has surely
          // ended, so the model never guesses which side of the boundary a verify falls on.
          let penaltyFrom = 0;
          let penaltyTo = 0;

          for (const step of steps) {
            if (step.kind === 'withdraw') {
              served.delete(step.key);
              service.issuer.keys = keys.filter((_, i) => served.has(i));
            } else if (step.kind === 'tick' || step.kind === 'age') {
              jest.setSystemTime(Date.now() + (step.kind === 'age' ? JWKS_MAX_AGE_MS : step.seconds * 1000));
            } else {
              const token = tokens[step.token] ?? tokens[0];
              if (!token) continue;
              const stale = Date.now() - fetchedAt >= JWKS_MAX_AGE_MS;
              let known = cached.has(token.key);
              if (penalty && performance.now() - penaltyFrom > PENALTY_MS - 1000) {
                await new Promise((resolve) => setTimeout(resolve, penaltyTo + PENALTY_MS + 100 - performance.now()));
                penalty = false;
              }
              const before = performance.now();
              const startsPenalty = !known && !penalty;
              if (startsPenalty) {
                cached = new Set(served);
                fetchedAt = Date.now();
                known = cached.has(token.key);
                penalty = !known;
              }
              const accepted = known && Date.now() <= token.exp * 1000;
              const result = await verify(token.jwt).then(
                (payload) => payload.sub,
                () => 'refused',
              );
              expect(result).toBe(accepted ? `user-${step.token}` : 'refused');
              if (startsPenalty && penalty) {
                penaltyFrom = before;
                penaltyTo = performance.now();
              }
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
  }, 120_000);
});
