// The local issuer's signing key and TLS identity, kept in a git-ignored folder across restarts.

import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTlsIdentity, type SigningKey, signingKeyFrom, type TlsIdentity } from './issuer.ts';

const SIGNING_KEY_FILE = 'signing-key.pem';
const TLS_KEY_FILE = 'tls-key.pem';
export const TLS_CERT_FILE = 'tls-cert.pem';

/** The signing key in `dir`, created on first use. */
export function loadSigningKey(dir: string): SigningKey {
  const pem = readOrCreate(join(dir, SIGNING_KEY_FILE), () =>
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  const privateKey = createPrivateKey(pem);
  return signingKeyFrom(privateKey, createPublicKey(privateKey));
}

/** The TLS identity in `dir`, created on first use (localhost plus `extraNames`) and when expired. */
export async function loadTlsIdentity(dir: string, extraNames: string[] = []): Promise<TlsIdentity> {
  try {
    const identity = {
      key: readFileSync(join(dir, TLS_KEY_FILE), 'utf8'),
      cert: readFileSync(join(dir, TLS_CERT_FILE), 'utf8'),
    };
    if (new Date(new X509Certificate(identity.cert).validTo).getTime() > Date.now() + 86_400_000) return identity;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const identity = await createTlsIdentity(extraNames);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, TLS_KEY_FILE), identity.key, { mode: 0o600 });
  writeFileSync(join(dir, TLS_CERT_FILE), identity.cert);
  return identity;
}

// `wx` makes creation exclusive: when the server and `npm run token` start together on a fresh
// clone, both end up with the one key that won.
function readOrCreate(file: string, create: () => string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, create(), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8');
}
