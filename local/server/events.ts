// API Gateway proxy events as the two API flavours deliver them to the function.

import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import { LIST_PLANTS, type Operation, routeKeyOf } from '../../handlers/lib/operations.ts';

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
}

/** HTTP API, payload format 2.0: lower-cased headers and the raw query string. */
export function httpApiEvent({
  query = '',
  headers = {},
  domainName = 'api1234567.execute-api.eu-west-1.amazonaws.com',
  operation = LIST_PLANTS,
  path = operation.path,
  stage = '$default',
  apiId = 'api1234567',
}: RequestShape = {}): APIGatewayProxyEventV2 {
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
    isBase64Encoded: false,
  };
}

/** REST API, payload format 1.0: decoded multi-value query parameters, stage in the path. */
export function restApiEvent({
  query = '',
  headers = {},
  domainName = 'rest123456.execute-api.eu-west-1.amazonaws.com',
  operation = LIST_PLANTS,
  stage = 'prod',
  path = `/${stage}${operation.path}`,
  apiId = 'rest123456',
}: RequestShape = {}): APIGatewayProxyEvent {
  const params = new URLSearchParams(query);
  const multi: Record<string, string[]> = {};
  for (const key of new Set(params.keys())) multi[key] = params.getAll(key);
  const single = Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v.at(-1) ?? '']));
  return {
    resource: operation.path,
    path: operation.path,
    httpMethod: operation.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: query ? single : null,
    multiValueQueryStringParameters: query ? multi : null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId,
      domainName,
      httpMethod: operation.method,
      path,
      protocol: 'HTTP/1.1',
      requestId: 'req-1',
      requestTimeEpoch: 1795262400000,
      resourceId: 'res1',
      resourcePath: operation.path,
      stage,
      authorizer: null,
      identity: { sourceIp: '198.51.100.7', userAgent: 'jest' } as APIGatewayProxyEvent['requestContext']['identity'],
    },
  };
}
