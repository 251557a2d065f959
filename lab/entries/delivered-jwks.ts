// Stand-in for aws-jwt-verify/jwk in the "JWKS delivered with the deployment" bench variant: the
// JWKS cache starts with the keys a deploy-time step would pass in (BENCH_DELIVERED_JWKS), so the
// verifier's hydrate() at init fetches nothing. Any later fetch (an unknown kid) goes to the real
// cache's fetcher, as it would in production.

import type { Jwks } from 'aws-jwt-verify/jwk';
import { SimpleJwksCache as FetchingJwksCache } from 'aws-jwt-verify/jwk';

export * from 'aws-jwt-verify/jwk';

const delivered = JSON.parse(process.env.BENCH_DELIVERED_JWKS ?? 'null') as Jwks | null;

export class SimpleJwksCache extends FetchingJwksCache {
  #seeded = new Set<string>();

  override async getJwks(jwksUri: string): Promise<Jwks> {
    if (delivered === null || this.#seeded.has(jwksUri)) return super.getJwks(jwksUri);
    this.#seeded.add(jwksUri);
    this.addJwks(jwksUri, delivered);
    return delivered;
  }
}
