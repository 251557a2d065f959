// API Gateway proxy events as the two API flavours deliver them to the function.

import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';

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
}

/** HTTP API, payload format 2.0: lower-cased headers and the raw query string. */
export function httpApiEvent({
  query = '',
  headers = {},
  domainName = 'api1234567.execute-api.eu-west-1.amazonaws.com',
  path = '/plants',
  stage = '$default',
  apiId = 'api1234567',
}: RequestShape = {}): APIGatewayProxyEventV2 {
  const params = new URLSearchParams(query);
  const queryStringParameters: Record<string, string> = {};
  for (const key of new Set(params.keys())) queryStringParameters[key] = params.getAll(key).join(',');
  return {
    version: '2.0',
    routeKey: 'GET /plants',
    rawPath: path,
    rawQueryString: query,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    ...(query && { queryStringParameters }),
    requestContext: {
      accountId: '123456789012',
      apiId,
      domainName,
      domainPrefix: domainName.split('.')[0] ?? '',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'jest' },
      requestId: 'req-1',
      routeKey: 'GET /plants',
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
  path = '/prod/plants',
  stage = 'prod',
  apiId = 'rest123456',
}: RequestShape = {}): APIGatewayProxyEvent {
  const params = new URLSearchParams(query);
  const multi: Record<string, string[]> = {};
  for (const key of new Set(params.keys())) multi[key] = params.getAll(key);
  const single = Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v.at(-1) ?? '']));
  return {
    resource: '/plants',
    path: '/plants',
    httpMethod: 'GET',
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
      httpMethod: 'GET',
      path,
      protocol: 'HTTP/1.1',
      requestId: 'req-1',
      requestTimeEpoch: 1795262400000,
      resourceId: 'res1',
      resourcePath: '/plants',
      stage,
      authorizer: null,
      identity: { sourceIp: '198.51.100.7', userAgent: 'jest' } as APIGatewayProxyEvent['requestContext']['identity'],
    },
  };
}
