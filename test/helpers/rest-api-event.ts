// REST API (payload format 1.0) proxy events as they reach the function, for the tests.

import type { APIGatewayProxyEvent } from 'aws-lambda';
import { LIST_PLANTS } from '../../handlers/lib/operations.ts';
import { pathVariables, type RequestShape } from './events.ts';

/** REST API, payload format 1.0: decoded multi-value query parameters, stage in the path. */
export function restApiEvent({
  query = '',
  headers = {},
  domainName = 'rest123456.execute-api.eu-west-1.amazonaws.com',
  operation = LIST_PLANTS,
  routePath = operation.path,
  stage = 'prod',
  path = `/${stage}${routePath}`,
  apiId = 'rest123456',
  body,
}: RequestShape = {}): APIGatewayProxyEvent {
  const params = new URLSearchParams(query);
  const multi: Record<string, string[]> = {};
  for (const key of new Set(params.keys())) multi[key] = params.getAll(key);
  const single = Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v.at(-1) ?? '']));
  return {
    resource: operation.path,
    path: routePath,
    httpMethod: operation.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: query ? single : null,
    multiValueQueryStringParameters: query ? multi : null,
    pathParameters: pathVariables(operation, routePath) ?? null,
    stageVariables: null,
    body: body ?? null,
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
