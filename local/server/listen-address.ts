// Where the local server listens, the origin it gives out, and the origins it answers as.

import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isLoopbackHost } from '../../handlers/lib/loopback.ts';

/** Loopback only: the server, like its embedded DynamoDB and JWKS, is for this machine. */
export const DEFAULT_HOST = '127.0.0.1';

const WILDCARDS = new Set(['0.0.0.0', '::']);
/** The aliases of one server bound to loopback (not isLoopbackHost's rule, which takes all of 127/8). */
const LOCALHOST_ALIASES = ['localhost', '127.0.0.1', '[::1]'];

const hostPart = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

/** Whether only this machine can reach an address the server listens on: localhost, 127/8, ::1. */
const loopbackOnly = (host: string): boolean => isLoopbackHost(hostPart(host));

/**
 * The base of absolute next links, only on loopback, where every client reaches the server as `origin`;
 * beyond it links stay relative, resolved against the URL each client called.
 */
export function linkBaseFor(host: string, origin: string): string | undefined {
  return loopbackOnly(host) ? origin : undefined;
}

/**
 * The origin given out: the bound address, never `localhost`, which may resolve to another address (::1
 * first on stock Debian, Ubuntu and macOS) where another process could listen and receive the tokens.
 */
export function originOf(address: string, port: number): string {
  const host = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  return `http://${hostPart(host)}:${port}`;
}

/**
 * A next link on the origin the request was made to, when it is one of ours: clients send a token only
 * to the origin they were given.
 */
export function linkOnOrigin(link: string, given: string, called: string): string {
  return given === called ? link : link.replaceAll(`<${given}/`, `<${called}/`);
}

/** Every origin a client of this server can rightly use; the first is the one given out. */
export function knownOrigins(host: string, port: number): string[] {
  const hosts = new Set(LOCALHOST_ALIASES);
  if (WILDCARDS.has(host)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address, family } of addresses ?? []) hosts.add(family === 'IPv6' ? `[${address}]` : address);
    }
  } else hosts.add(hostPart(host));
  return [originOf(host, port), ...[...hosts].map((name) => `http://${name}:${port}`)].filter(
    (origin, i, all) => all.indexOf(origin) === i,
  );
}

/** The origin a request's Host header names, when it is one of ours; else the one given out. */
export function originFor(hostHeader: string | undefined, origins: readonly string[]): string {
  const named = `http://${(hostHeader ?? '').toLowerCase()}`;
  return origins.find((origin) => origin === named) ?? origins[0] ?? named;
}

/** Said at start when the server is reachable from other machines: what that exposes. */
export function exposureNotice(host: string): string | undefined {
  if (loopbackOnly(host)) return undefined;
  return (
    `Listening on ${WILDCARDS.has(host) ? 'every network interface' : host}: other machines can call the API, ` +
    'read /docs and the JWKS, over plain HTTP (tokens cross the network in clear), with the store it reads ' +
    '(and your AWS credentials, if DYNAMODB_ENDPOINT names a real table). Without --host it listens on 127.0.0.1 only.'
  );
}
