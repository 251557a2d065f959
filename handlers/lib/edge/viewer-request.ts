// The opt-in edge's half inside the function (infra/edge/ is the rest): CloudFront signs each request
// it sends to the function's URL in the Authorization header (origin access control), so its
// viewer-request function moves the caller's Authorization to EDGE_HEADERS.authorization and names
// the host the caller used in EDGE_HEADERS.viewerHost. This puts the token back where authentication
// reads it, and makes a relative next link absolute on that host. A function URL has no routes, so
// the route is found here, as API Gateway finds it.

import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { NotFoundError } from '../errors.ts';
import { type ApiEvent, header } from '../http.ts';
import { routeKeyOf, routeOf } from '../operations.ts';
import { EDGE_HEADERS } from './environment.ts';

type EdgeRequest = Request<ApiEvent, APIGatewayProxyResult>;
/** A host name as CloudFront reports its own (`d111111abcdef8.cloudfront.net`): nothing that could break a Link. */
const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/** Behind the edge (BEHIND_EDGE), its middleware; else none, so the list reads the same either way. */
export function edgeViewerRequest(behindEdge: boolean): MiddlewareObj<ApiEvent, APIGatewayProxyResult>[] {
  return behindEdge ? [{ before: edgeViewerRequestBefore, after: edgeViewerRequestAfter }] : [];
}

/**
 * The route, from the caller's method and path (a function URL's events say `$default`): one of the
 * table's, or 404 as API Gateway answers. The caller's Authorization replaces CloudFront's
 * signature; without one the request carries none, so it is refused as unauthenticated, never
 * judged on the signature's text.
 */
function edgeViewerRequestBefore({ event }: EdgeRequest): void {
  if ('routeKey' in event) {
    const operation = routeOf(event.requestContext.http.method, event.rawPath);
    if (!operation) throw new NotFoundError();
    event.routeKey = routeKeyOf(operation);
  }
  const token = header(event, EDGE_HEADERS.authorization);
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'),
  );
  event.headers = token === undefined ? headers : { ...headers, authorization: token };
}

/**
 * The function can't learn the distribution's name from the stack (the distribution depends on the
 * function's URL, so a variable naming it would be a cycle): a query-only next link gets the
 * caller's host and path here. An absolute one (PUBLIC_BASE_URL, the edge's own domain) stays.
 */
function edgeViewerRequestAfter({ event, response }: EdgeRequest): void {
  const headers = response?.headers;
  const link = headers?.Link;
  const host = header(event, EDGE_HEADERS.viewerHost);
  if (typeof link !== 'string' || !link.startsWith('<?') || host === undefined || !HOST.test(host)) return;
  const path = 'rawPath' in event ? event.rawPath : event.path;
  (headers as Record<string, string>).Link = `<https://${host}${path}${link.slice(1)}`;
}
