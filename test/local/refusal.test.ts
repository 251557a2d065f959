// The local server's explanation of a refusal: the function's own checks, in its order, with a hint.

import { describe, expect, it } from '@jest/globals';
import { readConfig } from '../../handlers/lib/config.ts';
import { base64url, createSigningKey, jwksOf, signToken } from '../../local/issuer/issuer.ts';
import { refusalExplainer } from '../../local/issuer/refusal.ts';

const ISSUER = 'http://localhost:3000';
const key = createSigningKey();
const config = readConfig({
  PLANTS_TABLE_NAME: 't',
  AUTH_ISSUER: ISSUER,
  AUTH_ISSUER_TYPE: 'cognito',
  AUTH_AUDIENCE: 'plant-store-local',
  AUTH_JWKS_URI: 'https://localhost:3000/.well-known/jwks.json',
}).auth;
const explain = refusalExplainer(config, 3000, jwksOf(key));
const now = Math.floor(Date.now() / 1000);
const claims = { iss: ISSUER, sub: 'alice', client_id: 'plant-store-local', token_use: 'access', iat: now };

describe('refusalExplainer', () => {
  it('names another issuer before looking at the signature, as the function refuses it', async () => {
    // A forgery: the public kid, any iss, no valid signature.
    const forgedClaims = { ...claims, iss: 'https://x1.example/\u001b[2J' };
    const forged = `${base64url({ alg: 'RS256', kid: key.kid })}.${base64url(forgedClaims)}.AAAA`;
    expect(await explain(`Bearer ${forged}`)).toBe(
      'wrong issuer: Issuer not allowed: "https://x1.example/\\u001b[2J", expected "http://localhost:3000" (a token for this server: npm run token -- <user> --port 3000)',
    );
  });

  it('says how to mint a token within the maximum lifetime', async () => {
    const token = signToken(key, { ...claims, exp: now + 7 * 86_400 });
    expect(await explain(`Bearer ${token}`)).toMatch(
      /^The access token lives longer .*AUTH_MAX_TOKEN_LIFETIME.*--ttl 1h/,
    );
  });

  it("reads the header and the signature's spelling as the function does, so their refusals are said as such", async () => {
    const token = signToken(key, { ...claims, exp: now + 600 });
    expect(await explain(`Bearer ${'  '.repeat(5)}${token}`)).toMatch(
      /^the Authorization header is not "Bearer <token>"/,
    );
    expect(await explain(`Bearer ${token}=`)).toBe(
      'bad signature: Signature is not in its canonical base64url spelling',
    );
  });
});
