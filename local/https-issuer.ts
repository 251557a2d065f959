// A token issuer for `sam local`: the JWKS over HTTPS on all interfaces (the function runs in a
// container and reaches it as host.docker.internal), with a key and certificate kept in .local/
// so tokens and the trusted certificate survive restarts. Prints a token per user given.
//
//   npm run sam:issuer -- alice bob        (ISSUER_PORT, default 9443)

import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';
import { jwksOf } from './issuer.ts';
import { loadSigningKey, loadTlsIdentity, TLS_CERT_FILE } from './keys.ts';
import { LOCAL_AUDIENCE, mintToken } from './tokens.ts';

const DIR = fileURLToPath(new URL('../.local/https-issuer/', import.meta.url));
const PORT = Number(process.env.ISSUER_PORT ?? 9443);
const ISSUER = `https://localhost:${PORT}`;
const TOKEN_SECONDS = 3600;

const key = loadSigningKey(DIR);
// The name the container uses must be in the certificate, or the handler's TLS check fails.
const tls = await loadTlsIdentity(DIR, ['host.docker.internal']);
const server = createServer(tls, (req, res) => {
  if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(jwksOf(key)));
});
server.listen(PORT, '0.0.0.0', () => {
  console.log(`JWKS: ${ISSUER}/.well-known/jwks.json (also https://host.docker.internal:${PORT})`);
  console.log(`Certificate to trust: ${DIR}${TLS_CERT_FILE}`);
  console.log(`AUTH_ISSUER=${ISSUER} AUTH_AUDIENCE=${LOCAL_AUDIENCE}`);
  for (const subject of process.argv.slice(2)) {
    console.log(`${subject}: ${mintToken(key, { issuer: ISSUER, subject, ttl: TOKEN_SECONDS })}`);
  }
});
