// The HTTP edge: reading API Gateway events (REST payload 1.0 and HTTP API payload 2.0),
// writing responses, and the middleware that turns every error into the Error body.

import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';
import { toErrorResponse } from './errors.ts';

export type ApiEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

/**
 * Per-user data must never sit in a shared cache; and no browser may sniff a JSON body into
 * something it would render or run.
 */
const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

const isHttpApi = (event: ApiEvent): event is APIGatewayProxyEventV2 => 'rawPath' in event;

/**
 * Header lookup by name, case-insensitive as HTTP requires; repeated headers joined by ", ". A
 * crafted event can hold one header under several spellings (`Authorization`, `authorization`),
 * in payload 1.0's `multiValueHeaders` and in `headers` (which repeats one of those values):
 * every value of every spelling counts, so two credentials are two, whichever way they came.
 */
export function header(event: ApiEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  const multi = isHttpApi(event) ? {} : (event.multiValueHeaders ?? {});
  for (const [key, list] of Object.entries(multi)) if (key.toLowerCase() === wanted) values.push(...(list ?? []));
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined && !values.includes(value)) values.push(value);
  }
  return values.length === 0 ? undefined : values.join(', ');
}

/** Every value of each query parameter, so a repeated parameter can be told from a single one. */
export function queryParameters(event: ApiEvent): Map<string, string[]> {
  const params = new Map<string, string[]>();
  const add = (key: string, value: string) => params.set(key, [...(params.get(key) ?? []), value]);
  if (isHttpApi(event)) {
    // queryStringParameters joins repeated keys with commas; the raw string keeps them apart.
    for (const [key, value] of new URLSearchParams(event.rawQueryString ?? '')) add(key, value);
  } else if (event.multiValueQueryStringParameters) {
    for (const [key, values] of Object.entries(event.multiValueQueryStringParameters)) {
      for (const value of values ?? []) add(key, value);
    }
  } else {
    for (const [key, value] of Object.entries(event.queryStringParameters ?? {}))
      if (value !== undefined) add(key, value);
  }
  return params;
}

/**
 * The RFC 8288 link to the next page: absolute under `base` (see public-url.ts) so that clients
 * can use it as-is (`fetch(next)`, Python requests' `r.links`), or, where no base is known, a
 * relative reference holding only the query (RFC 3986 §4.2), which the client resolves against
 * the URL it requested (§5.2.2 keeps that URL's scheme, host and path).
 */
export function nextLink(query: URLSearchParams, base: string | undefined): string {
  const target = base === undefined ? `?${query}` : `${base}/plants?${query}`;
  return `<${target}>; rel="next"`;
}

/** A 200 with a body already serialized as JSON. */
export function json(body: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode: 200,
    headers: { ...COMMON_HEADERS, 'Content-Type': 'application/json', ...headers },
    body,
  };
}

/**
 * Maps any error to `{error, message}` with the status and headers its type carries. Runs before
 * @middy/http-error-handler, which writes the response. Server-side failures leave as a generic
 * message; the original error stays as `cause`, where the request's record finds it (stack included).
 */
export function errorResponses(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const response = toErrorResponse(request.error);
      request.error = Object.assign(new Error(response.body, { cause: request.error }), {
        statusCode: response.statusCode,
        expose: true,
        headers: { ...COMMON_HEADERS, ...response.headers },
      });
    },
  };
}
