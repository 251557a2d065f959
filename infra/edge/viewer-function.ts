// The edge's CloudFront Function: 404 for what the API doesn't serve, the caller's token kept past OAC.
// Kept as source text: CloudFront runs it, and its test runs the same text on CloudFront-shaped events.

import type { FunctionSettings } from '../../handlers/lib/environment.ts';
import { pathPattern } from '../../handlers/lib/operations.ts';

/**
 * The headers this function sets (or removes) on every request, whatever the caller sent under these
 * names, so that the function can trust them: the caller's token, which origin access control's
 * signature displaces from Authorization, and the host the caller used.
 */
export const EDGE_HEADERS = {
  authorization: 'x-plant-store-authorization',
  viewerHost: 'x-plant-store-viewer-host',
} as const;

/** What the function is told behind the edge: where the token and the public host are (configuration.md). */
export const EDGE_FUNCTION_SETTINGS = {
  auth: { tokenHeader: EDGE_HEADERS.authorization },
  publicHostHeader: EDGE_HEADERS.viewerHost,
} as const satisfies FunctionSettings;

/** What CloudFront answers itself for a request the API doesn't serve: the API's Error body and headers. */
export const NOT_FOUND = {
  statusCode: 404,
  statusDescription: 'Not Found',
  headers: {
    'content-type': { value: 'application/json' },
    'cache-control': { value: 'no-store' },
    'x-content-type-options': { value: 'nosniff' },
  },
  body: { encoding: 'text', data: JSON.stringify({ error: 404, message: 'Not Found' }) },
} as const;

export interface ViewerFunctionRoutes {
  /** The API's path templates (`/plants/{id}`), matched as the HTTP API's routes match them. */
  paths: readonly string[];
  /** GET, and OPTIONS where browsers' preflights must reach the function URL's CORS. */
  methods: readonly string[];
}

/**
 * The function's source. Whatever the caller sent under EDGE_HEADERS' names is replaced or removed,
 * so the function can trust them: only requests through this distribution reach it (edge.ts).
 * ES5 on purpose: the runtime's language is a subset of modern JavaScript.
 */
export function viewerFunctionCode({ paths, methods }: ViewerFunctionRoutes): string {
  const patterns = paths.map((path) => pathPattern(path).source);
  return `var PATHS = ${JSON.stringify(patterns)}.map(function (source) { return new RegExp(source); });
var METHODS = ${JSON.stringify(methods)};
var NOT_FOUND = ${JSON.stringify(NOT_FOUND)};
function handler(event) {
  var request = event.request;
  var headers = request.headers;
  var served = PATHS.some(function (pattern) { return pattern.test(request.uri); });
  if (!served || METHODS.indexOf(request.method) === -1) return NOT_FOUND;
  var authorization = headers.authorization;
  delete headers[${JSON.stringify(EDGE_HEADERS.authorization)}];
  if (authorization) headers[${JSON.stringify(EDGE_HEADERS.authorization)}] = authorization;
  headers[${JSON.stringify(EDGE_HEADERS.viewerHost)}] = { value: event.context.distributionDomainName };
  return request;
}
`;
}
