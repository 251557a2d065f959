// The HTTP edge: reading API Gateway events (REST payload 1.0 and HTTP API payload 2.0),
// writing responses, and the middleware that turns every error into the Error body.

import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';
import { toErrorResponse } from './errors.ts';

export type ApiEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

/** Per-user data must never sit in a shared cache. */
const COMMON_HEADERS = { 'Cache-Control': 'no-store' };

const isHttpApi = (event: ApiEvent): event is APIGatewayProxyEventV2 => 'rawPath' in event;

/** Header lookup by name, case-insensitive as HTTP requires; repeated headers joined by ", ". */
export function header(event: ApiEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  if (!isHttpApi(event)) {
    const values = Object.entries(event.multiValueHeaders ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
    if (values && values.length > 0) return values.join(', ');
  }
  return Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
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
 * The RFC 8288 link to the next page. By default a relative reference holding only the query
 * (RFC 3986 §4.2): the client resolves it against the URL it requested (§5.2.2 keeps that URL's
 * scheme, host and path), so it stays right behind a custom domain with or without an API mapping
 * key, a REST stage or a proxy's path prefix, none of which the event reliably shows (payload 2.0's
 * rawPath omits the mapping key). With `publicBaseUrl`, an absolute URL under it instead.
 */
export function nextLink(query: URLSearchParams, publicBaseUrl: string | undefined): string {
  const target = publicBaseUrl === undefined ? `?${query}` : `${publicBaseUrl}/plants?${query}`;
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
