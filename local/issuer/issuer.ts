// A local token issuer for development and tests: signing keys, tokens, and the JWKS over HTTPS.

import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** False: the JWKS lists the key without `alg`, so a token's header chooses it (as some issuers publish). */
  publishAlg?: boolean;
  /** Members the JWKS lists with the key over its own (`use`, `key_ops`), as another issuer might. */
  published?: Record<string, unknown>;
}

/** The JWS algorithm of each key type the tests sign with (RFC 7518 §3.1, RFC 8037 §3.1). */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';
const EC_CURVES = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' } as const;
const HASHES = { RS256: 'sha256', ES256: 'sha256', ES384: 'sha384', ES512: 'sha512', EdDSA: null } as const;

export interface TlsIdentity {
  key: string;
  cert: string;
}

/** A new key pair for `alg`; EdDSA's is Ed25519, or Ed448 when asked. */
export function createSigningKey(alg: SigningAlgorithm = 'RS256', curve: 'ed25519' | 'ed448' = 'ed25519'): SigningKey {
  const { privateKey, publicKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : alg === 'EdDSA'
        ? generateKeyPairSync(curve as 'ed25519')
        : generateKeyPairSync('ec', { namedCurve: EC_CURVES[alg] });
  return signingKeyFrom(privateKey, publicKey);
}

/** The algorithm a key signs with: RS256 for RSA, ES256/384/512 by curve, EdDSA for Ed25519 and Ed448. */
export function algorithmOf(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
  }
  return key.asymmetricKeyType === 'ed25519' || key.asymmetricKeyType === 'ed448' ? 'EdDSA' : 'RS256';
}

export function signingKeyFrom(privateKey: KeyObject, publicKey: KeyObject): SigningKey {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const kid = createHash('sha256').update(der).digest('base64url').slice(0, 16);
  return { kid, privateKey, publicKey };
}

export const jwksOf = (...keys: SigningKey[]) => ({
  keys: keys.map((key) => ({
    ...key.publicKey.export({ format: 'jwk' }),
    kid: key.kid,
    ...(key.publishAlg !== false && { alg: algorithmOf(key.publicKey) }),
    use: 'sig',
    ...key.published,
  })),
});

export const base64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact JWT, `header.payload.signature`, signed with the key's own algorithm (`header` may name another). */
export function signToken(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const alg = algorithmOf(key.privateKey);
  const input = `${base64url({ alg, typ: 'JWT', kid: key.kid, ...header })}.${base64url(claims)}`;
  // IEEE P1363 (r ‖ s), as RFC 7518 §3.4 writes an ECDSA signature; RSA and EdDSA ignore it.
  const signature = sign(HASHES[alg], Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** A self-signed certificate for localhost, 127.0.0.1 and any `extraNames`, valid for a year. */
export async function createTlsIdentity(extraNames: string[] = []): Promise<TlsIdentity> {
  // Loaded here, not with the module: every CLI that signs a token imports this file, and only the
  // first start of a server makes a certificate (selfsigned and node-forge are most of its load time).
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'plant-store local issuer' }], {
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          ...extraNames.map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/**
 * Makes this process trust the local certificate, as NODE_EXTRA_CA_CERTS would at start-up.
 * Only development and test code calls this: the deployed handler trusts the public CAs alone.
 */
export function trustCertificate(certPem: string): void {
  setDefaultCACertificates([...getCACertificates('default'), certPem]);
}

export interface JwksServer {
  url: string;
  jwksUri: string;
  /** JWKS requests served so far. */
  requests: number;
  /** When false the server answers 503, as an issuer outage would. */
  available: boolean;
  keys: SigningKey[];
  close(): Promise<void>;
}

/** `host`: the one address to listen on (loopback by default; sam local's containers need another). */
export async function startJwksServer(
  tls: TlsIdentity,
  keys: SigningKey[],
  port = 0,
  host = '127.0.0.1',
): Promise<JwksServer> {
  const state: JwksServer = { url: '', jwksUri: '', requests: 0, available: true, keys, close: async () => {} };
  const server: Server = createServer(tls, (req, res) => {
    if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
    state.requests += 1;
    if (!state.available) return void res.writeHead(503).end();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(jwksOf(...state.keys)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  state.url = `https://${host === '127.0.0.1' ? 'localhost' : host}:${(server.address() as AddressInfo).port}`;
  state.jwksUri = `${state.url}/.well-known/jwks.json`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
