// A CloudFront Function's source run as CloudFront calls it, `handler(event)` in a context of its own
// (no Node globals), on viewer-request events shaped as CloudFront documents them (event structure 1.0).

import { runInNewContext } from 'node:vm';

export const DISTRIBUTION_DOMAIN = 'd111111abcdef8.cloudfront.net';

export interface ViewerRequest {
  method?: string;
  uri?: string;
  /** Raw query string, without `?`. */
  query?: string;
  headers?: Record<string, string>;
}

/** CloudFront's values: `{ value }` per header (lower-cased names) and per query parameter. */
type Values = Record<string, { value: string }>;
export interface CloudFrontRequest {
  method: string;
  uri: string;
  querystring: Values;
  headers: Values;
  cookies: Values;
}
export interface CloudFrontResponse {
  statusCode: number;
  headers: Values;
  body: { encoding: string; data: string };
}

export function viewerRequestEvent({ method = 'GET', uri = '/plants', query = '', headers = {} }: ViewerRequest = {}) {
  const querystring: Values = {};
  for (const [name, value] of new URLSearchParams(query)) querystring[name] = { value };
  return {
    version: '1.0',
    context: {
      distributionDomainName: DISTRIBUTION_DOMAIN,
      distributionId: 'EDFDVBD6EXAMPLE',
      eventType: 'viewer-request',
      requestId: 'req-edge-1',
    },
    viewer: { ip: '198.51.100.7' },
    request: {
      method,
      uri,
      querystring,
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), { value }])),
      cookies: {},
    },
  };
}

/** What the function returns: the request to forward, or a response CloudFront sends instead. */
export function runViewerFunction(code: string, request: ViewerRequest): CloudFrontRequest | CloudFrontResponse {
  const context: { handler?: (event: unknown) => CloudFrontRequest | CloudFrontResponse } = {};
  runInNewContext(`${code}\nthis.handler = handler;`, context);
  if (context.handler === undefined) throw new Error('the function defines no handler');
  // Through JSON, as CloudFront serializes what the function returns.
  return JSON.parse(JSON.stringify(context.handler(viewerRequestEvent(request))));
}

export const isResponse = (result: CloudFrontRequest | CloudFrontResponse): result is CloudFrontResponse =>
  'statusCode' in result;
