// How the issuer's key set is fetched: aws-jwt-verify's fetcher, bounded in time and in bytes read.

import { Agent } from 'node:https';
import type { Duplex } from 'node:stream';
import { SimpleFetcher } from 'aws-jwt-verify/https';

/**
 * The most a key set's answer may be, headers included: over 14 times Entra ID's, about 600 RSA keys
 * (docs/reliability.md); it bounds what a fetch holds in memory and the keys the container parses.
 */
export const MAX_JWKS_BYTES = 256 * 1024;

// Bounded so a slow issuer cannot hold the request near the function timeout: aws-jwt-verify
// retries once, so a JWKS fetch gives up after at most 2 × AUTH_JWKS_TIMEOUT_MS (1.5 s), each attempt
// after two thirds of it without a byte.
const fetchTimeouts = (ms: number) => ({ timeout: Math.ceil((ms * 2) / 3), responseTimeout: ms });

/**
 * aws-jwt-verify 5.2.1 reads an answer whole, whatever its size, and has no option to bound it. Its
 * requests go through this agent, whose connections (one per fetch: no keep-alive) end once they
 * have read more than MAX_JWKS_BYTES: the library sees a network fault, retries once, then fails the
 * fetch, which the function answers as an unavailable issuer (503).
 */
class BoundedAgent extends Agent {
  constructor() {
    super({ keepAlive: false });
  }

  override createConnection(...args: Parameters<Agent['createConnection']>): Duplex | null | undefined {
    const socket = super.createConnection(...args);
    let read = 0;
    socket?.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > MAX_JWKS_BYTES) socket.destroy(new Error(`Key set answer over ${MAX_JWKS_BYTES} bytes`));
    });
    return socket;
  }
}

/** The key set's fetcher, each attempt bounded by `timeoutMs` (AUTH_JWKS_TIMEOUT_MS) and MAX_JWKS_BYTES. */
export const jwksFetcher = (timeoutMs: number): SimpleFetcher =>
  new SimpleFetcher({ defaultRequestOptions: { ...fetchTimeouts(timeoutMs), agent: new BoundedAgent() } });
