// Hostile Authorization headers, one table: each row states the status, the WWW-Authenticate
// challenge and the message the caller must get. Tokens are real RS256 JWTs (or forgeries of
// them) checked against a TLS-served JWKS; nothing here is mocked.

import { createHmac, createSign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_SPACES_AFTER_BEARER } from '../../handlers/lib/auth/authenticate.ts';
import { base64url, createSigningKey, type SigningKey, signToken } from '../../local/issuer/issuer.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { restApiEvent } from '../helpers/rest-api-event.ts';
import { type Service, startService } from '../helpers/service.ts';

let service: Service;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  service = await startService();
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Monstera' }]);
  // Warm the JWKS cache so every row is timed on its own work.
  expect((await service.call(bearer(service.token('alice')))).status).toBe(200);
});
afterAll(() => service?.stop());

type ApiEvent = ReturnType<typeof httpApiEvent> | ReturnType<typeof restApiEvent>;
const withAuthorization = (authorization: string) => httpApiEvent({ headers: { authorization } });
const bearer = (token: string) => withAuthorization(`Bearer ${token}`);
const claims = (overrides: Record<string, unknown> = {}) => service.claims('alice', overrides);
const valid = () => service.token('alice');
const parts = (token: string) => token.split('.') as [string, string, string];

/** Signs arbitrary header and payload segments with RS256, so only their content is wrong. */
function signSegments(key: SigningKey, headerSegment: string, payloadSegment: string): string {
  const input = `${headerSegment}.${payloadSegment}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key.privateKey, 'base64url')}`;
}
const rs256Header = (extra: Record<string, unknown> = {}) =>
  base64url({ alg: 'RS256', typ: 'JWT', kid: service.key.kid, ...extra });

/** Two Authorization headers as each API flavour delivers them to the function. */
function twoHeaders(flavour: 'http' | 'rest'): ApiEvent {
  const [first, second] = [`Bearer ${valid()}`, `Bearer ${service.token('bob')}`];
  if (flavour === 'http') return httpApiEvent({ headers: { authorization: `${first},${second}` } });
  const event = restApiEvent({ headers: { Authorization: second } });
  event.multiValueHeaders = { Authorization: [first, second] };
  return event;
}

/** Two tokens under two spellings of the name, as a crafted event can carry them. */
function twoSpellings(where: 'rest-headers' | 'rest-multi' | 'rest-mixed' | 'http'): ApiEvent {
  const [first, second] = [`Bearer ${valid()}`, `Bearer ${service.token('bob')}`];
  if (where === 'http') return { ...httpApiEvent(), headers: { Authorization: first, authorization: second } };
  const event = restApiEvent();
  if (where === 'rest-headers') return { ...event, headers: { Authorization: first, authorization: second } };
  if (where === 'rest-multi')
    return { ...event, multiValueHeaders: { Authorization: [first], authorization: [second] } };
  return { ...event, headers: { Authorization: first }, multiValueHeaders: { authorization: [second] } };
}

const REQUIRED = 'A bearer token is required';
const INVALID = 'The access token is invalid';
const NO_SUBJECT = 'The access token has no usable subject';
interface Expected {
  status: number;
  challenge: string;
  message: string;
}
/** RFC 6750 §3.1: no credentials get a bare challenge; refused credentials get invalid_token. */
const bare: Expected = { status: 401, challenge: 'Bearer', message: REQUIRED };
const refused = (message = INVALID): Expected => ({
  status: 401,
  challenge: `Bearer error="invalid_token", error_description="${message}"`,
  message,
});

const foreignKey = createSigningKey();
const rows: [string, () => ApiEvent, Expected][] = [
  // What is sent is not bearer credentials at all.
  ['no Authorization header', () => httpApiEvent(), bare],
  ['an empty header', () => withAuthorization(''), bare],
  ['the Basic scheme', () => withAuthorization(`Basic ${Buffer.from('alice:pw').toString('base64')}`), bare],
  ['another scheme with a valid token', () => withAuthorization(`Token ${valid()}`), bare],
  ['the scheme alone', () => withAuthorization('Bearer'), bare],
  ['a token without a scheme', () => withAuthorization(valid()), bare],
  ['no space after the scheme', () => withAuthorization(`Bearer${valid()}`), bare],
  ['a tab after the scheme', () => withAuthorization(`Bearer\t${valid()}`), bare],
  ['a no-break space after the scheme', () => withAuthorization(`Bearer\u00a0${valid()}`), bare],
  ['a byte-order mark before the scheme', () => withAuthorization(`\ufeffBearer ${valid()}`), bare],
  ['the scheme and spaces only', () => withAuthorization('Bearer    '), bare],
  // A token is sent, and refused.
  ['two tokens in one header', () => withAuthorization(`Bearer ${valid()} ${valid()}`), refused()],
  ['two Authorization headers (HTTP API joins them)', () => twoHeaders('http'), refused()],
  ['two Authorization headers (REST API multi-value)', () => twoHeaders('rest'), refused()],
  ['Authorization and authorization in REST headers', () => twoSpellings('rest-headers'), refused()],
  ['Authorization and authorization in REST multiValueHeaders', () => twoSpellings('rest-multi'), refused()],
  ['Authorization in headers, authorization in multiValueHeaders', () => twoSpellings('rest-mixed'), refused()],
  ['Authorization and authorization in an HTTP API event', () => twoSpellings('http'), refused()],
  ['a CRLF header injection after the token', () => withAuthorization(`Bearer ${valid()}\r\nX-User: bob`), refused()],
  ['64 KB of spaces before a stray character', () => withAuthorization(`Bearer${' '.repeat(65536)}x y`), refused()],
  ['64 KB of spaces before a tab', () => withAuthorization(`Bearer${' '.repeat(65536)}\t`), refused()],
  // Only one spelling of the token (a short run of spaces, nothing around it), and none that pushes
  // the token past the first kilobytes of headers proxies and rate limiters read.
  [
    `the longest run of spaces taken after the scheme (${MAX_SPACES_AFTER_BEARER}), before an expired token`,
    () =>
      withAuthorization(`bEaReR${' '.repeat(MAX_SPACES_AFTER_BEARER)}${service.token('alice', { exp: now() - 60 })}`),
    refused('The access token has expired'),
  ],
  [
    'one space more than the longest run taken',
    () => withAuthorization(`Bearer${' '.repeat(MAX_SPACES_AFTER_BEARER + 1)}${valid()}`),
    refused(),
  ],
  ['8,000 spaces after the scheme', () => withAuthorization(`Bearer${' '.repeat(8000)}${valid()}`), refused()],
  ['a space before the scheme', () => withAuthorization(` Bearer ${valid()}`), bare],
  ['a space after the token', () => withAuthorization(`Bearer ${valid()} `), refused()],
  ['spaces around the token', () => withAuthorization(`  Bearer   ${valid()}   `), bare],
  [
    'an expired token',
    () => bearer(service.token('alice', { exp: now() - 1 })),
    refused('The access token has expired'),
  ],
  [
    'nbf in the future',
    () => bearer(service.token('alice', { nbf: now() + 600 })),
    refused('The access token is not valid yet'),
  ],
  ['exp as a string', () => bearer(service.token('alice', { exp: String(now() + 600) })), refused()],
  ['no exp', () => bearer(service.token('alice', { exp: undefined })), refused('The access token has no expiry')],
  [
    'exp = 1e300',
    () => bearer(service.token('alice', { exp: 1e300 })),
    refused('The access token lives longer than this API accepts'),
  ],
  [
    'iat ten years ahead',
    () => bearer(service.token('alice', { iat: now() + 315_360_000 })),
    refused('The access token is issued in the future'),
  ],
  [
    'an unknown crit header extension',
    () => bearer(signToken(service.key, claims(), { crit: ['x-unknown'], 'x-unknown': 1 })),
    refused('The access token needs a header extension this API does not support'),
  ],
  ['another issuer', () => bearer(service.token('alice', { iss: 'https://evil.example.com' })), refused()],
  [
    'the issuer with a trailing slash',
    () => bearer(service.token('alice', { iss: `${service.issuer.url}/` })),
    refused(),
  ],
  ['another audience', () => bearer(service.token('alice', { aud: 'another-api' })), refused()],
  ['no audience', () => bearer(service.token('alice', { aud: undefined })), refused()],
  [
    'an id token',
    () => bearer(service.token('alice', { token_use: 'id' })),
    refused('The token is not an access token'),
  ],
  [
    'no token_use',
    () => bearer(service.token('alice', { token_use: undefined })),
    refused('The token is not an access token'),
  ],
  ['no sub', () => bearer(service.token('alice', { sub: undefined })), refused(NO_SUBJECT)],
  ['an empty sub', () => bearer(service.token('alice', { sub: '' })), refused(NO_SUBJECT)],
  // A lone surrogate encodes as U+FFFD: two such subs would share one partition.
  ['a sub with a lone surrogate', () => bearer(service.token('\ud800')), refused(NO_SUBJECT)],
  ['a sub longer than a partition key', () => bearer(service.token('a'.repeat(2044))), refused(NO_SUBJECT)],
  ['a numeric sub', () => bearer(service.token('alice', { sub: 42 })), refused()],
  ['an array sub', () => bearer(service.token('alice', { sub: ['alice'] })), refused()],
  ['alg none without a signature', () => bearer(`${base64url({ alg: 'none' })}.${base64url(claims())}.`), refused()],
  [
    'alg none with a signature',
    () => bearer(`${base64url({ alg: 'none', kid: service.key.kid })}.${base64url(claims())}.c2ln`),
    refused(),
  ],
  [
    'alg "None" with the real signature',
    () => bearer(signSegments(service.key, rs256Header({ alg: 'None' }), base64url(claims()))),
    refused(),
  ],
  [
    'HS256 signed with the PEM public key',
    () => bearer(hmacToken(service.key.publicKey.export({ type: 'spki', format: 'pem' }))),
    refused(),
  ],
  [
    'HS256 signed with the JWK modulus',
    () => bearer(hmacToken(String(service.key.publicKey.export({ format: 'jwk' }).n))),
    refused(),
  ],
  [
    'ES256 in the header over an RS256 signature',
    () => bearer(signSegments(service.key, rs256Header({ alg: 'ES256' }), base64url(claims()))),
    refused(),
  ],
  [
    'RS512 in the header over an RS256 signature',
    () => bearer(signSegments(service.key, rs256Header({ alg: 'RS512' }), base64url(claims()))),
    refused(),
  ],
  ['an unknown key and kid', () => bearer(signToken(foreignKey, claims())), refused()],
  [
    'a known kid over a foreign signature',
    () => bearer(signToken({ ...foreignKey, kid: service.key.kid }, claims())),
    refused(),
  ],
  [
    'a jku header pointing at another key set',
    () => bearer(signToken(foreignKey, claims(), { jku: 'https://evil.example.com/jwks.json' })),
    refused(),
  ],
  [
    'no kid',
    () => bearer(signSegments(service.key, base64url({ alg: 'RS256', typ: 'JWT' }), base64url(claims()))),
    refused(),
  ],
  [
    'a numeric kid',
    () => bearer(signSegments(service.key, base64url({ alg: 'RS256', kid: 1 }), base64url(claims()))),
    refused(),
  ],
  [
    'a 10 KB path-traversal kid',
    () => bearer(signToken({ ...foreignKey, kid: `../${'a'.repeat(10240)}` }, claims())),
    refused(),
  ],
  [
    'a tampered payload',
    () => bearer(`${parts(valid())[0]}.${base64url(claims({ sub: 'bob' }))}.${parts(valid())[2]}`),
    refused(),
  ],
  ['a tampered signature', () => bearer(`${valid().slice(0, -4)}AAAA`), refused()],
  ['a truncated token', () => bearer(valid().slice(0, -10)), refused()],
  ['only two segments', () => bearer(valid().split('.').slice(0, 2).join('.')), refused()],
  ['five segments (JWE-shaped)', () => bearer(`${valid()}.AAAA.BBBB`), refused()],
  ['empty segments', () => bearer('..'), refused()],
  ['not a JWT', () => bearer('not-a-jwt'), refused()],
  ['a non-JSON header', () => bearer(`${base64url('{nope')}.${base64url(claims())}.sig`), refused()],
  [
    'a non-JSON payload under a valid signature',
    () => bearer(signSegments(service.key, rs256Header(), base64url('{"sub":"alice"'))),
    refused(),
  ],
  [
    'a JSON array payload under a valid signature',
    () => bearer(signSegments(service.key, rs256Header(), base64url('["alice"]'))),
    refused(),
  ],
  [
    'a null payload under a valid signature',
    () => bearer(signSegments(service.key, rs256Header(), base64url('null'))),
    refused(),
  ],
  ['a header that is not base64url', () => bearer(`%%%.${parts(valid())[1]}.${parts(valid())[2]}`), refused()],
  ['a 64 KB token of random segments', () => bearer(['A', 'B', 'C'].map((c) => c.repeat(21845)).join('.')), refused()],
  [
    'a 64 KB payload under a foreign signature',
    () => bearer(signToken(foreignKey, claims({ pad: 'x'.repeat(65536) }))),
    refused(),
  ],
  ['a NUL byte inside the token', () => bearer(`${valid().slice(0, 30)}\u0000${valid().slice(30)}`), refused()],
  ['an ANSI escape sequence after the token', () => bearer(`${valid()}\u001b[2J`), refused()],
  ['a DEL character inside the token', () => bearer(`${valid().slice(0, 30)}\u007f${valid().slice(30)}`), refused()],
  ['a zero-width space inside the token', () => bearer(`${valid().slice(0, 30)}\u200b${valid().slice(30)}`), refused()],
];

function hmacToken(secret: string | Buffer): string {
  const input = `${base64url({ alg: 'HS256', typ: 'JWT', kid: service.key.kid })}.${base64url(claims())}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('hostile Authorization headers', () => {
  it.each(rows)('refuses %s', async (_, request, expected) => {
    // No wall-clock bound here (the code enforces none, and a busy machine would break one):
    // quadratic parsing of a hostile header would show as this test's timeout.
    const reply = await service.call(request());

    expect(reply).toMatchObject({
      status: expected.status,
      body: { error: expected.status, message: expected.message },
    });
    expect(reply.headers['www-authenticate']).toBe(expected.challenge);
  });

  it('has at least 30 rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
  });
});
