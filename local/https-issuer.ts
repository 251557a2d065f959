// A token issuer for `sam local`: the JWKS over HTTPS on all interfaces (the function runs in a
// container and reaches it as host.docker.internal), with a key and certificate kept in .local/
// so tokens and the trusted certificate survive restarts. Prints a token per user given.
//
//   npm run sam:issuer -- alice bob        (ISSUER_PORT, default 9443)

import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { generate } from 'selfsigned';
import { createSigningKey, jwksOf, type SigningKey, signingKeyFrom, signToken } from './issuer.ts';

const DIR = new URL('../.local/https-issuer/', import.meta.url);
const PORT = Number(process.env.ISSUER_PORT ?? 9443);
const ISSUER = `https://localhost:${PORT}`;
const AUDIENCE = 'plant-store-local';
const TOKEN_SECONDS = 3600;

function loadKey(): SigningKey {
  const file = new URL('signing-key.pem', DIR);
  if (existsSync(file)) {
    const privateKey = createPrivateKey(readFileSync(file));
    return signingKeyFrom(privateKey, createPublicKey(privateKey));
  }
  const key = createSigningKey();
  writeFileSync(file, key.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return key;
}

// The name the container uses must be in the certificate, or the handler's TLS check fails.
async function loadTls(): Promise<{ key: string; cert: string }> {
  const keyFile = new URL('tls-key.pem', DIR);
  const certFile = new URL('cert.pem', DIR);
  if (!existsSync(certFile)) {
    const pems = await generate([{ name: 'commonName', value: 'plant-store sam local issuer' }], {
      keySize: 2048,
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 2, value: 'host.docker.internal' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    writeFileSync(keyFile, pems.private, { mode: 0o600 });
    writeFileSync(certFile, pems.cert);
  }
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
}

mkdirSync(DIR, { recursive: true });
const key = loadKey();
const tls = await loadTls();
const server = createServer(tls, (req, res) => {
  if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(jwksOf(key)));
});
server.listen(PORT, '0.0.0.0', () => {
  console.log(`JWKS: ${ISSUER}/.well-known/jwks.json (also https://host.docker.internal:${PORT})`);
  console.log(`Certificate to trust: ${new URL('cert.pem', DIR).pathname}`);
  console.log(`AUTH_ISSUER=${ISSUER} AUTH_AUDIENCE=${AUDIENCE}`);
  const now = Math.floor(Date.now() / 1000);
  for (const sub of process.argv.slice(2)) {
    const claims = { iss: ISSUER, aud: AUDIENCE, sub, token_use: 'access', iat: now, exp: now + TOKEN_SECONDS };
    console.log(`${sub}: ${signToken(key, claims)}`);
  }
});
