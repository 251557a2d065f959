// Property tests (fast-check) of the cache of verified tokens: it serves an entry only until the
// token expires or the key set changes or ages out, and it stays within its bounds in LRU order.
// With the real verifier: token-cache-verifier.test.ts.
//
// Deterministic: a fixed seed unless FC_SEED is set; FC_RUNS scales the run counts; a failure
// prints the seed and path to replay with FC_SEED and FC_PATH.

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { tokenKey, VerifiedTokenCache } from '../../../../handlers/lib/auth/token-cache.ts';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const SCALE = Number(process.env.FC_RUNS ?? 1);
const PATH = process.env.FC_PATH;
const check = async <Ts extends unknown[]>(property: fc.IRawProperty<Ts>, numRuns: number) =>
  await fc.assert(property, { seed: SEED, numRuns: numRuns * SCALE, ...(PATH && { path: PATH }) });

const T0 = 1_800_000_000_000;
const payloadOf = (sub: string, expSeconds: number) => ({ sub, exp: expSeconds });
const CURRENT = { version: 1, fresh: true };

describe('VerifiedTokenCache', () => {
  it('serves an entry only while its token is unexpired and its key set current and fresh', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), token: fc.nat(5), lifetime: fc.integer({ min: -5, max: 120 }) }),
      fc.record({ kind: fc.constant('get' as const), token: fc.nat(5) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 30_000 }) }),
      fc.record({ kind: fc.constant('rotate' as const) }),
      fc.record({ kind: fc.constant('age' as const), fresh: fc.boolean() }),
    );
    await check(
      fc.property(fc.array(op, { minLength: 20, maxLength: 60 }), (ops) => {
        const cache = new VerifiedTokenCache();
        const model = new Map<number, { exp: number; version: number }>();
        let now = T0;
        let keys = { ...CURRENT };
        for (const step of ops) {
          if (step.kind === 'tick') now += step.ms;
          if (step.kind === 'rotate') keys = { ...keys, version: keys.version + 1 };
          if (step.kind === 'age') keys = { ...keys, fresh: step.fresh };
          if (step.kind === 'set') {
            const exp = Math.floor(now / 1000) + step.lifetime;
            const token = `token-${step.token}`;
            cache.set(tokenKey(token), token, payloadOf(token, exp), keys.version);
            model.set(step.token, { exp, version: keys.version });
          }
          if (step.kind === 'get') {
            const entry = model.get(step.token);
            const servable = entry && entry.version === keys.version && keys.fresh && now <= entry.exp * 1000;
            const got = cache.get(tokenKey(`token-${step.token}`), keys, now);
            expect(got?.sub).toBe(servable ? `token-${step.token}` : undefined);
            // An entry that was not servable is gone for good (a new verification puts it back).
            if (!servable) model.delete(step.token);
          }
        }
      }),
      300,
    );
  });

  it('holds at most its bounds, evicting the least recently used first', async () => {
    const MAX_ENTRIES = 4;
    const MAX_CHARS = 60;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), token: fc.nat(9), length: fc.integer({ min: 1, max: 70 }) }),
      fc.record({ kind: fc.constant('get' as const), token: fc.nat(9) }),
    );
    await check(
      fc.property(fc.array(op, { minLength: 20, maxLength: 80 }), (ops) => {
        const cache = new VerifiedTokenCache(MAX_ENTRIES, MAX_CHARS);
        // Least recently used first: [id, size].
        let model: [number, number][] = [];
        const far = Math.floor(T0 / 1000) + 3600;
        for (const step of ops) {
          if (step.kind === 'set') {
            // A token's size is fixed by its id, as a real token's is by its content.
            const token = `${step.token}:`.padEnd(10 + ((step.token * 7) % 61), 'x');
            cache.set(tokenKey(token), token, payloadOf(token, far), 1);
            if (token.length > MAX_CHARS) continue;
            model = [...model.filter(([id]) => id !== step.token), [step.token, token.length]];
            while (model.length > MAX_ENTRIES || model.reduce((sum, [, size]) => sum + size, 0) > MAX_CHARS)
              model.shift();
          } else {
            const token = `${step.token}:`.padEnd(10 + ((step.token * 7) % 61), 'x');
            const hit = model.find(([id]) => id === step.token);
            expect(cache.get(tokenKey(token), CURRENT, T0)?.sub).toBe(hit ? token : undefined);
            if (hit) model = [...model.filter(([id]) => id !== step.token), hit];
          }
          expect(cache.size).toBe(model.length);
          expect(cache.size).toBeLessThanOrEqual(MAX_ENTRIES);
        }
      }),
      300,
    );
  });
});
