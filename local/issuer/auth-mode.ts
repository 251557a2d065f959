// Who issues the tokens the local server accepts: its own issuer (default), or a real one.

import { COGNITO_GROUPS_CLAIM, readConfig, readGroupsClaim } from '../../handlers/lib/config.ts';
import { functionEnvironment, type IssuerType } from '../../handlers/lib/environment.ts';
import { issuerDirOf } from '../server/options.ts';
import { jwksOf, startJwksServer, trustCertificate } from './issuer.ts';
import { loadSigningKey, loadTlsIdentity } from './keys.ts';
import { DEFAULT_TOKEN_TTL, LOCAL_AUDIENCE, localIssuerUrl, mintToken, parseDuration } from './tokens.ts';

/** `env`: the handler's AUTH_* variables; the local issuer's `jwks` (also served by the local server), `issuer`
 * (what `npm run token` needs to mint for the server) and demo users' `tokens`. */
export type AuthMode = Awaited<ReturnType<typeof startLocalIssuer>> | ReturnType<typeof externalIssuer>;

export type DemoUser = { user: string; groups: readonly string[] };

/**
 * The groups claim the local issuer writes, read by the handler's own rule: AUTH_GROUPS_CLAIM, else
 * the shape's usual one (an OIDC issuer's `groups`, where the function's default is no groups).
 */
export const groupsClaimOf = (env: NodeJS.ProcessEnv, shape: IssuerType): string | undefined =>
  readGroupsClaim(env, shape === 'cognito' ? COGNITO_GROUPS_CLAIM : 'groups');

/**
 * The local issuer, Cognito-shaped by default as the default stack verifies. The handler fetches keys over
 * HTTPS only, so the JWKS is served over TLS with a self-signed certificate this process alone trusts.
 */
export async function startLocalIssuer(localDir: string, port: number, shape: IssuerType, users: readonly DemoUser[]) {
  const dir = issuerDirOf(localDir);
  const key = loadSigningKey(dir);
  const tls = await loadTlsIdentity(dir);
  trustCertificate(tls.cert);
  const jwksServer = await startJwksServer(tls, [key]);
  const issuer = localIssuerUrl(port);
  const groupsClaim = groupsClaimOf(process.env, shape);
  const ttl = parseDuration(DEFAULT_TOKEN_TTL);
  const mint = ({ user, groups }: DemoUser) =>
    mintToken(key, { issuer, subject: user, ttl, shape, groups: groupsClaim ? groups : [], groupsClaim });
  return {
    env: functionEnvironment({
      auth: {
        issuer,
        issuerType: shape,
        audience: [LOCAL_AUDIENCE],
        tokenUse: 'access',
        jwksUri: jwksServer.jwksUri,
        groupsClaim: groupsClaim ?? false,
      },
    }),
    description: `local issuer ${issuer} (JWKS: ${issuer}/.well-known/jwks.json), ${
      shape === 'cognito'
        ? `Cognito-shaped access tokens, app client ${LOCAL_AUDIENCE}`
        : `OIDC tokens, aud ${LOCAL_AUDIENCE}`
    }${groupsClaim ? `, groups in ${groupsClaim}` : ', no groups'}`,
    jwks: jwksOf(key),
    issuer: { url: issuer, shape, audience: LOCAL_AUDIENCE, groupsClaim },
    tokens: users.map((user) => ({ ...user, groups: groupsClaim ? user.groups : [], token: mint(user) })),
    close: () => jwksServer.close(),
  };
}

/** AUTH_* as set by the user, checked here so a mistake fails at start rather than as 503s. */
export function externalIssuer(env: NodeJS.ProcessEnv) {
  // The handler's own reading of the environment: same defaults, same missing-variable errors.
  // readConfig also refuses a JWKS URL that is not https, which the handler could never fetch.
  const { issuer, jwksUri } = readConfig(env).auth;
  const description = `${issuer} (JWKS: ${jwksUri})`;
  return { env: {}, description, jwks: undefined, issuer: undefined, tokens: undefined, close: async () => {} };
}
