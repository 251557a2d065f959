// The token issuer `sam local` containers use: the JWKS over HTTPS as host.docker.internal.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COGNITO_GROUPS_CLAIM } from '../../handlers/lib/config.ts';
import { startJwksServer } from '../issuer/issuer.ts';
import { loadSigningKey, loadTlsIdentity, TLS_CERT_FILE } from '../issuer/keys.ts';
import { LOCAL_AUDIENCE, mintToken } from '../issuer/tokens.ts';

/** The name containers started with `--add-host host.docker.internal:host-gateway` know the host by. */
export const DOCKER_HOST_NAME = 'host.docker.internal';
const TOKEN_SECONDS = 3600;

/** Keys and certificate are kept in `dir`, so a token and the trusted certificate survive restarts. */
export async function startSamIssuer(dir: string, host: string, port = 0) {
  const key = loadSigningKey(dir);
  // The name the container uses must be in the certificate, or the function's TLS check fails.
  const tls = await loadTlsIdentity(dir, [DOCKER_HOST_NAME]);
  const server = await startJwksServer(tls, [key], port, host);
  const url = `https://${DOCKER_HOST_NAME}:${new URL(server.url).port}`;
  const certFile = join(dir, TLS_CERT_FILE);
  return {
    url,
    jwksUri: `${url}/.well-known/jwks.json`,
    certFile,
    cert: readFileSync(certFile, 'utf8'),
    mint: (subject: string, groups: readonly string[], scope?: string) =>
      mintToken(key, {
        issuer: url,
        subject,
        ttl: TOKEN_SECONDS,
        scope,
        audience: LOCAL_AUDIENCE,
        shape: 'cognito',
        groups,
        groupsClaim: COGNITO_GROUPS_CLAIM,
      }),
    close: () => server.close(),
  };
}
