// Who issues the tokens the local server accepts: its own issuer (default), or a real one.

import { readConfig } from '../handlers/lib/config.ts';
import { jwksOf, startJwksServer, trustCertificate } from './issuer.ts';
import { loadSigningKey, loadTlsIdentity } from './keys.ts';
import { issuerDirOf } from './options.ts';
import { DEFAULT_TOKEN_TTL, LOCAL_AUDIENCE, localIssuerUrl, mintToken, parseDuration } from './tokens.ts';

export interface AuthMode {
  /** The handler's AUTH_* variables. */
  env: Record<string, string>;
  description: string;
  /** The local issuer's key set, also served over plain HTTP by the local server. */
  jwks?: object;
  /** Ready-made tokens for the demo users. */
  tokens?: { user: string; token: string }[];
  close(): Promise<void>;
}

/**
 * The handler fetches the JWKS over HTTPS only, so the local issuer serves it over TLS with a
 * self-signed certificate that this process, and only this process, trusts.
 */
export async function startLocalIssuer(localDir: string, port: number, users: readonly string[]): Promise<AuthMode> {
  const dir = issuerDirOf(localDir);
  const key = loadSigningKey(dir);
  const tls = await loadTlsIdentity(dir);
  trustCertificate(tls.cert);
  const jwksServer = await startJwksServer(tls, [key]);
  const issuer = localIssuerUrl(port);
  const ttl = parseDuration(DEFAULT_TOKEN_TTL);
  return {
    env: {
      AUTH_ISSUER: issuer,
      AUTH_AUDIENCE: LOCAL_AUDIENCE,
      AUTH_TOKEN_USE: 'access',
      AUTH_JWKS_URI: jwksServer.jwksUri,
    },
    description: `local issuer ${issuer} (JWKS: ${issuer}/.well-known/jwks.json), audience ${LOCAL_AUDIENCE}`,
    jwks: jwksOf(key),
    tokens: users.map((user) => ({ user, token: mintToken(key, { issuer, subject: user, ttl }) })),
    close: () => jwksServer.close(),
  };
}

/** AUTH_* as set by the user, checked here so a mistake fails at start rather than as 503s. */
export function externalIssuer(env: NodeJS.ProcessEnv): AuthMode {
  // The handler's own reading of the environment: same defaults, same missing-variable errors.
  const { issuer, jwksUri } = readConfig(env).auth;
  if (!jwksUri.startsWith('https://')) {
    throw new Error(`the handler fetches signing keys over https only, and ${jwksUri} is not: set AUTH_JWKS_URI`);
  }
  return { env: {}, description: `${issuer} (JWKS: ${jwksUri})`, close: async () => {} };
}
