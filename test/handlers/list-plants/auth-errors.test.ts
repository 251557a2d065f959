// Failures while verifying that are not the caller's fault: never a 401 that hides them.

import { describe, expect, it } from '@jest/globals';
import { authenticate } from '../../../handlers/lib/auth/authenticate.ts';
import { createTokenVerifier } from '../../../handlers/lib/auth/token-verifier.ts';
import { readConfig } from '../../../handlers/lib/config.ts';
import { HttpError, toErrorResponse, UnauthorizedError } from '../../../handlers/lib/errors.ts';
import { createSigningKey, signToken } from '../../../local/issuer/issuer.ts';

const ISSUER = 'https://issuer.example.com';
const NO_SCOPE_OR_GROUPS = { requiredScope: undefined, groupsClaim: undefined };
const now = () => Math.floor(Date.now() / 1000);
const token = signToken(createSigningKey(), { iss: ISSUER, aud: 'api', sub: 'alice', iat: now(), exp: now() + 60 });

describe('unexpected verification errors', () => {
  it('leave as a generic 500 (logged at ERROR in the request record), not as 401', async () => {
    // The fault readConfig now refuses at cold start, forced past it: aws-jwt-verify cannot fetch
    // an http key URL and throws a TypeError, which used to become 401 "invalid" for every caller.
    const config = readConfig({ PLANTS_TABLE_NAME: 't', AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: 'api' }).auth;
    const verify = createTokenVerifier({ ...config, jwksUri: 'http://issuer.example.com/jwks.json' });

    const error = await authenticate(`Bearer ${token}`, verify, NO_SCOPE_OR_GROUPS).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(HttpError);
    expect(toErrorResponse(error)).toMatchObject({
      statusCode: 500,
      body: '{"error":500,"message":"Internal server error"}',
    });
  });

  it('keeps a bad token a 401', async () => {
    const verify = async () => {
      throw new UnauthorizedError('The access token is invalid', 'invalid');
    };
    await expect(authenticate(`Bearer ${token}`, verify, NO_SCOPE_OR_GROUPS)).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
