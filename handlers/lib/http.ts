// The HTTP boundary: reading API Gateway events (REST payload 1.0 and HTTP API payload 2.0),
// writing responses, and the middleware that turns every error into the Error body.

import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';
import { toErrorResponse } from './errors.ts';

export type ApiEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

/**
 * Per-user data must never sit in a shared cache; and no browser may sniff a JSON body into
 * something it would render or run.
 */
export const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

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
 * The RFC 8288 link to the next page of `path`: absolute under `base` (see public-url.ts) so that clients
 * can use it as-is (`fetch(next)`, Python requests' `r.links`), or, where no base is known, a
 * relative reference holding only the query (RFC 3986 §4.2), which the client resolves against
 * the URL it requested (§5.2.2 keeps that URL's scheme, host and path).
 */
export function nextLink(path: string, query: URLSearchParams, base: string | undefined): string {
  const target = base === undefined ? `?${query}` : `${base}${path}?${query}`;
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
 * Answers any error with `{error, message}` and the status and headers its type carries: sets the
 * response itself, so @middy/http-error-handler (after it) has nothing left to write. Server-side
 * failures leave as a generic message; `request.error` stays the original, where the request's
 * record finds it (stack included).
 */
export function errorResponses(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  const errorResponsesOnError = (request: Request<ApiEvent, APIGatewayProxyResult>) => {
    const { statusCode, headers, body } = toErrorResponse(request.error);
    request.response = { statusCode, headers: { ...COMMON_HEADERS, ...headers }, body };
  };
  return { onError: errorResponsesOnError };
}
