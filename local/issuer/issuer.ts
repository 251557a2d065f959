// A local OpenID-style token issuer for development and tests: an RSA signing key, RS256 tokens,
// and the JWKS served over HTTPS so the deployed handler's own fetcher (https only) can read it.

import { createHash, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { generate } from 'selfsigned';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface TlsIdentity {
  key: string;
  cert: string;
}

export function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return signingKeyFrom(privateKey, publicKey);
}

export function signingKeyFrom(privateKey: KeyObject, publicKey: KeyObject): SigningKey {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const kid = createHash('sha256').update(der).digest('base64url').slice(0, 16);
  return { kid, privateKey, publicKey };
}

export const jwksOf = (...keys: SigningKey[]) => ({
  keys: keys.map((key) => ({ ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' })),
});

export const base64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact RS256 JWT: `header.payload.signature`. */
export function signToken(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const input = `${base64url({ alg: 'RS256', typ: 'JWT', kid: key.kid, ...header })}.${base64url(claims)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(key.privateKey, 'base64url');
  return `${input}.${signature}`;
}

/** A self-signed certificate for localhost, 127.0.0.1 and any `extraNames`, valid for a year. */
export async function createTlsIdentity(extraNames: string[] = []): Promise<TlsIdentity> {
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
