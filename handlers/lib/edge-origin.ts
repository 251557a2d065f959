// Behind the opt-in edge (CloudFront + WAF), only requests that came through it are served: the
// distribution adds a secret origin header, and a request without it is refused before any read.

import { createHash, timingSafeEqual } from 'node:crypto';
import { EDGE_ORIGIN_HEADER } from './environment.ts';
import { HttpError } from './errors.ts';
import { type ApiEvent, header } from './http.ts';

/** 403: the request reached the API around the edge (its execute-api URL), so skipped WAF's limits. */
export class NotThroughEdgeError extends HttpError {
  override name = 'NotThroughEdgeError';
  constructor() {
    super(
      403,
      'forbidden',
      'This API is served only through its public URL; call that URL, not the API Gateway endpoint',
    );
  }
}

/**
 * Refuses a request that carries none of the edge's secrets, when any is configured (the current
 * generation, and the previous one during a rotation; none: no edge, nothing to check). Compared
 * as digests in constant time, each of them, so neither the length nor a prefix leaks through timing.
 */
export function requireEdgeOrigin(event: ApiEvent, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const sent = header(event, EDGE_ORIGIN_HEADER);
  if (sent === undefined) throw new NotThroughEdgeError();
  // Every secret is compared, so the time taken does not say which one matched.
  const matches = secrets.map((secret) => timingSafeEqual(digest(sent), digest(secret)));
  if (!matches.includes(true)) throw new NotThroughEdgeError();
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
