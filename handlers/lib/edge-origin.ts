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
    super(403, 'This API is served only through its public URL; call that URL, not the API Gateway endpoint');
  }
}

/**
 * Refuses a request without the edge's secret, when one is configured (EDGE_ORIGIN_SECRET; unset:
 * no edge, nothing to check). Compared as digests in constant time, so neither the length nor a
 * prefix of the secret leaks through timing.
 */
export function requireEdgeOrigin(event: ApiEvent, secret: string | undefined): void {
  if (secret === undefined) return;
  const sent = header(event, EDGE_ORIGIN_HEADER);
  if (sent === undefined || !timingSafeEqual(digest(sent), digest(secret))) throw new NotThroughEdgeError();
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
