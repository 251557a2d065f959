// A burst of tokens with random unknown `kid`s must not turn the service into a JWKS
// amplifier: aws-jwt-verify's penalty box allows one refetch for an unknown kid, then none for
// 10 s. Counted at the (real, TLS) JWKS server.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSigningKey, type SigningKey, signToken } from '../../local/issuer/issuer.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { AUDIENCE, type Reply, type Service, startService } from '../helpers/service.ts';

/** aws-jwt-verify's SimplePenaltyBox default: after an unknown kid, no refetch for 10 s. */
const PENALTY_MS = 10_000;
const BURST = 200;

let service: Service;

beforeAll(async () => {
  service = await startService();
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Fern' }]);
});
afterAll(() => service?.stop());

const call = (token: string) => service.call(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));
const now = () => Math.floor(Date.now() / 1000);
const tokenSignedBy = (key: SigningKey) =>
  signToken(key, { iss: service.issuer.url, aud: AUDIENCE, sub: 'alice', token_use: 'access', exp: now() + 600 });
const forger = createSigningKey();
/** A well-formed token for alice whose kid the issuer never published. */
const unknownKidToken = () => tokenSignedBy({ ...forger, kid: randomUUID() });
let firstBurstStart = 0;
let fetchesBeforeBursts = 0;

/** JWKS fetches a burst may cause: one, plus one per penalty period the burst outlasts. */
const allowedFetches = (elapsedMs: number) => 1 + Math.floor(elapsedMs / PENALTY_MS);

function expectAllRefused(replies: Reply[]) {
  const statuses = new Set(replies.map((r) => `${r.status} ${r.headers['www-authenticate']}`));
  expect([...statuses]).toEqual(['401 Bearer error="invalid_token", error_description="The access token is invalid"']);
}

describe('unknown kid bursts', () => {
  it('fetches the JWKS once at cold start and serves from the cache afterwards', async () => {
    for (let i = 0; i < 5; i++) expect((await call(service.token('alice'))).status).toBe(200);
    expect(service.issuer.requests).toBe(1);
  });

  it('fetches a rotated key once and accepts tokens signed with it', async () => {
    const rotated = createSigningKey();
    service.issuer.keys.push(rotated);
    const before = service.issuer.requests;
    expect((await call(tokenSignedBy(rotated))).status).toBe(200);
    expect((await call(tokenSignedBy(rotated))).status).toBe(200);
    expect(service.issuer.requests - before).toBe(1);
  });

  it(`refuses ${BURST} concurrent random kids with at most one JWKS fetch per penalty period`, async () => {
    fetchesBeforeBursts = service.issuer.requests;
    firstBurstStart = performance.now();
    const replies = await Promise.all(Array.from({ length: BURST }, () => call(unknownKidToken())));

    expectAllRefused(replies);
    const fetches = service.issuer.requests - fetchesBeforeBursts;
    expect(fetches).toBeGreaterThanOrEqual(1); // an unknown kid may be a rotation: one look is due
    expect(fetches).toBeLessThanOrEqual(allowedFetches(performance.now() - firstBurstStart));
  });

  it(`refuses ${BURST} sequential random kids without fetching the JWKS again`, async () => {
    const replies: Reply[] = [];
    for (let i = 0; i < BURST; i++) replies.push(await call(unknownKidToken()));

    expectAllRefused(replies);
    // Counted over both bursts: the concurrent one above opened the penalty period.
    const fetches = service.issuer.requests - fetchesBeforeBursts;
    expect(fetches).toBeLessThanOrEqual(allowedFetches(performance.now() - firstBurstStart));
  });

  it('keeps serving callers with a known kid during the penalty period, without fetching', async () => {
    const before = service.issuer.requests;
    const reply = await call(service.token('alice'));
    expect(reply).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
    expect(service.issuer.requests).toBe(before);
  });
});
