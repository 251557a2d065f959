// Authentication of GET /plants with real RS256 tokens verified against a served JWKS.

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { base64url, createSigningKey, signToken } from '../local/issuer.ts';
import { httpApiEvent, restApiEvent } from './helpers/events.ts';
import { AUDIENCE, type Service, startService } from './helpers/service.ts';

let service: Service;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  service = await startService();
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Monstera', tag: 'tropical' }]);
});
afterAll(() => service.stop());

const withAuthorization = (authorization: string) => httpApiEvent({ headers: { authorization } });
const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: service.issuer.url,
  aud: AUDIENCE,
  sub: 'alice',
  token_use: 'access',
  iat: now(),
  exp: now() + 600,
  ...overrides,
});

describe('accepted credentials', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'BeArEr'])('accepts the %s scheme, case-insensitively', async (scheme) => {
    const reply = await service.call(withAuthorization(`${scheme} ${service.token('alice')}`));
    expect(reply).toMatchObject({ status: 200, body: [{ name: 'Monstera', tag: 'tropical' }] });
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

describe('missing credentials', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['the Basic scheme', `Basic ${Buffer.from('alice:pw').toString('base64')}`],
    ['the scheme alone', 'Bearer'],
    ['a token without a scheme', 'eyJhbGciOiJSUzI1NiJ9.e30.sig'],
  ])('answers 401 with a bare Bearer challenge for %s', async (_, authorization) => {
    const event = httpApiEvent(authorization === undefined ? {} : { headers: { authorization } });
    const reply = await service.call(event);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer');
    expect(reply.body).toEqual({ error: 401, message: 'A bearer token is required' });
  });
});

describe('refused tokens', () => {
  const foreignKey = createSigningKey();
  const invalid = /^The access token is invalid$/;
  const cases: [string, () => string, RegExp][] = [
    ['has expired', () => service.token('alice', { exp: now() - 60 }), /expired/],
    ['is not valid yet', () => service.token('alice', { nbf: now() + 600 }), /not valid yet/],
    ['comes from another issuer', () => service.token('alice', { iss: 'https://evil.example.com' }), invalid],
    ['is for another audience', () => service.token('alice', { aud: 'another-api' }), invalid],
    ['is an id token', () => service.token('alice', { token_use: 'id' }), /not an access token/],
    ['has no subject', () => service.token('alice', { sub: undefined }), /no subject/],
    ['has an empty subject', () => service.token('alice', { sub: '' }), /no subject/],
    ['has alg none and no signature', () => `${base64url({ alg: 'none' })}.${base64url(claims())}.`, invalid],
    [
      'has alg none and a signature',
      () => `${base64url({ alg: 'none', kid: service.key.kid })}.${base64url(claims())}.c2ln`,
      invalid,
    ],
    [
      'is HS256-signed with the public key',
      () => {
        const input = `${base64url({ alg: 'HS256', typ: 'JWT', kid: service.key.kid })}.${base64url(claims())}`;
        const pem = service.key.publicKey.export({ type: 'spki', format: 'pem' });
        return `${input}.${createHmac('sha256', pem).update(input).digest('base64url')}`;
      },
      invalid,
    ],
    ['is signed by an unknown key', () => signToken(foreignKey, claims()), invalid],
    [
      'carries a known kid over a foreign signature',
      () => signToken({ ...foreignKey, kid: service.key.kid }, claims()),
      invalid,
    ],
    [
      'has a tampered payload',
      () => service.token('alice').replace(/\.[^.]+\./, `.${base64url(claims({ sub: 'bob' }))}.`),
      invalid,
    ],
    ['is truncated', () => service.token('alice').slice(0, -10), invalid],
    ['is not a JWT', () => 'not-a-jwt', invalid],
    ['has a non-JSON header', () => `${base64url('{nope')}.${base64url(claims())}.sig`, invalid],
  ];

  it.each(cases)('answers 401 invalid_token when the token %s', async (_, token, message) => {
    const reply = await service.call(withAuthorization(`Bearer ${token()}`));
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"$/);
    expect(reply.body).toEqual({ error: 401, message: expect.stringMatching(message) });
  });

  it('answers 401 invalid_token to anything after the token', async () => {
    const reply = await service.call(withAuthorization(`Bearer ${service.token('alice')} extra`));
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('answers 401 to two credentials in one header', async () => {
    const token = service.token('alice');
    const reply = await service.call(withAuthorization(`Bearer ${token}, Bearer ${token}`));
    expect(reply.status).toBe(401);
  });

  it('never echoes the token back', async () => {
    const token = service.token('alice', { exp: now() - 60 });
    const reply = await service.call(withAuthorization(`Bearer ${token}`));
    expect(JSON.stringify(reply)).not.toContain(token.split('.')[1]);
  });
});
