// API Gateway HTTP API (payload 2.0) proxy events as they reach the function.

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { LIST_PLANTS, type Operation, pathParametersOf, routeKeyOf } from '../../handlers/lib/operations.ts';

export interface RequestShape {
  /** Raw query string as sent, without `?`. */
  query?: string;
  headers?: Record<string, string>;
  /** How the request was addressed, as API Gateway reports it (defaults: the execute-api endpoint). */
  domainName?: string;
  /** HTTP API: rawPath (no mapping key); REST API: requestContext.path (stage or base path included). */
  path?: string;
  stage?: string;
  /** The API's id, which API Gateway reports whatever host the request came on. */
  apiId?: string;
  /** The operation API Gateway routed the request to (default: GET /plants). */
  operation?: Operation;
  /**
   * The path as the route matched it (no stage, no base path), whose variables make pathParameters:
   * `/plants/p1` for `GET /plants/{id}`. Default: the route's own path.
   */
  routePath?: string;
  /** The request's body, as text (a JSON document). */
  body?: string;
}

/** The path variables API Gateway finds in `path` under the operation's route (none: undefined). */
export function pathVariables(operation: Operation, path: string): Record<string, string> | undefined {
  const found = pathParametersOf(operation, path);
  if (found === undefined) throw new Error(`${path} is not a path of ${routeKeyOf(operation)}`);
  return Object.keys(found).length > 0 ? found : undefined;
}

/** HTTP API, payload format 2.0: lower-cased headers and the raw query string. */
export function httpApiEvent({
  query = '',
  headers = {},
  domainName = 'api1234567.execute-api.eu-west-1.amazonaws.com',
  operation = LIST_PLANTS,
  routePath = operation.path,
  path = routePath,
  stage = '$default',
  apiId = 'api1234567',
  body,
}: RequestShape = {}): APIGatewayProxyEventV2 {
  const pathParameters = pathVariables(operation, routePath);
  const params = new URLSearchParams(query);
  const queryStringParameters: Record<string, string> = {};
  for (const key of new Set(params.keys())) queryStringParameters[key] = params.getAll(key).join(',');
  return {
    version: '2.0',
    routeKey: routeKeyOf(operation),
    rawPath: path,
    rawQueryString: query,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    ...(query && { queryStringParameters }),
    ...(pathParameters && { pathParameters }),
    requestContext: {
      accountId: '123456789012',
      apiId,
      domainName,
      domainPrefix: domainName.split('.')[0] ?? '',
      http: { method: operation.method, path, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'jest' },
      requestId: 'req-1',
      routeKey: routeKeyOf(operation),
      stage,
      time: '21/Nov/2026:12:00:00 +0000',
      timeEpoch: 1795262400000,
    },
    ...(body !== undefined && { body }),
    isBase64Encoded: false,
  };
}
