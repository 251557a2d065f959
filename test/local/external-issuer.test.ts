// `npm start` with an external issuer (AUTH_ISSUER) whose JWKS is served over HTTPS with a
// certificate of its own, trusted through NODE_EXTRA_CA_CERTS as docs/local-development.md says:
// tokens from that issuer work, and no hint sends the user to `npm run token`, which can't mint them.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createSigningKey,
  createTlsIdentity,
  type JwksServer,
  type SigningKey,
  signToken,
  startJwksServer,
} from '../../local/issuer/issuer.ts';
import { type LocalServer, removeTempDirs, startLocalServer, tempDir } from '../helpers/local-server.ts';

const ISSUER = 'https://issuer.example.test';
const AUDIENCE = 'plants-api';
let key: SigningKey;
let jwks: JwksServer;
let server: LocalServer;
beforeAll(async () => {
  const tls = await createTlsIdentity();
  const certFile = join(tempDir('ca'), 'issuer-ca.pem');
  writeFileSync(certFile, tls.cert);
  key = createSigningKey();
  jwks = await startJwksServer(tls, [key]);
  server = await startLocalServer([], {
    AUTH_ISSUER: ISSUER,
    AUTH_ISSUER_TYPE: 'oidc',
    AUTH_AUDIENCE: AUDIENCE,
    AUTH_TOKEN_USE: 'access',
    AUTH_JWKS_URI: jwks.jwksUri,
    NODE_EXTRA_CA_CERTS: certFile,
  });
});
afterAll(async () => {
  await server?.stop();
  await jwks?.close();
  removeTempDirs();
});

const now = () => Math.floor(Date.now() / 1000);
const tokenBy = (signer: SigningKey, times = { iat: now(), exp: now() + 600 }) =>
  signToken(signer, { iss: ISSUER, sub: 'alice', aud: AUDIENCE, token_use: 'access', ...times });
const status = async (token: string) =>
  (await fetch(`${server.origin}/plants`, { headers: { authorization: `Bearer ${token}` } })).status;
/** The function's own record of a refused or failed request, as npm start prints it. */
const recordWith = (pattern: RegExp) =>
  server.waitForOutput(new RegExp(`^\\{"level":"(INFO|ERROR)","message":"request".*${pattern.source}.*$`, 'm'));

describe('npm start with AUTH_ISSUER', () => {
  it("accepts the issuer's tokens, its JWKS certificate trusted through NODE_EXTRA_CA_CERTS", async () => {
    expect(await status(tokenBy(key))).toBe(200);
  });

  it("says why it refused the issuer's token, in the function's own record", async () => {
    expect(await status(tokenBy(key, { iat: now() - 7200, exp: now() - 3600 }))).toBe(401);

    await expect(recordWith(/"status":401,.*"reason":"expired"/)).resolves.toBeTruthy();
    expect(server.output()).not.toContain('npm run token');
  });

  it('says in the API reference where Authorize tokens come from', async () => {
    const openapi = (await (await fetch(`${server.origin}/openapi.json`)).json()) as {
      components: { securitySchemes: { bearerAuth: { description: string } } };
    };
    const help = openapi.components.securitySchemes.bearerAuth.description;
    expect(help).toContain(`accepts access tokens from ${ISSUER}`);
    expect(help).not.toContain('npm run');
  });

  it("records why it answered 503 when the issuer's keys can't be fetched: the untrusted certificate", async () => {
    // The issuer now serves a new key under a certificate nobody trusts: a token signed with that
    // key sends the function to fetch the key set again, and the fetch fails.
    const port = Number(new URL(jwks.url).port);
    await jwks.close();
    const rotated = createSigningKey();
    jwks = await startJwksServer(await createTlsIdentity(), [rotated], port);

    expect(await status(tokenBy(rotated))).toBe(503);
    const [line] = await recordWith(/"status":503,/);
    expect(line).toContain(`Failed to fetch ${jwks.jwksUri}`);
    expect(line).toMatch(/self[- ]signed|unable to (get|verify)|certificate/i);
  });
});
