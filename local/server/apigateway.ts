// What API Gateway (HTTP API, payload 2.0) does around a Lambda proxy integration.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** The parts of an HTTP request the event is made of. */
export interface HttpRequest {
  method: string;
  /** Request target as sent: path and query string. */
  url: string;
  httpVersion: string;
  /** Lower-cased names, every value of repeated headers in order. */
  headers: Record<string, string[]>;
  sourceIp: string;
  body: Buffer;
}

export interface HttpReply {
  statusCode: number;
  /** Name-value pairs; a name may repeat (set-cookie). */
  headers: [string, string][];
  body: Buffer;
}

export interface EventContext {
  routeKey: string;
  /** The route's path variables (operations.ts's pathParametersOf); a route without any sends none. */
  pathParameters?: Record<string, string>;
  requestId: string;
  now: Date;
  /** Port the client connected to, for x-forwarded-port. */
  port: number;
}

// API Gateway passes these bodies as text and base64-encodes all others.
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

export function fromIncoming(req: IncomingMessage, body: Buffer): HttpRequest {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    httpVersion: req.httpVersion,
    headers: req.headersDistinct as Record<string, string[]>,
    sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
    body,
  };
}

export function toHttpApiEvent(req: HttpRequest, context: EventContext): APIGatewayProxyEventV2 {
  const queryStart = req.url.indexOf('?');
  const rawPath = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : req.url.slice(queryStart + 1);
  const cookies = (req.headers.cookie ?? []).flatMap((line) => line.split(';').map((c) => c.trim())).filter(Boolean);
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(req.headers)) if (name !== 'cookie') headers[name] = values.join(',');
  const host = headers.host ?? `localhost:${context.port}`;
  Object.assign(headers, {
    'x-forwarded-for': headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${req.sourceIp}` : req.sourceIp,
    'x-forwarded-port': String(context.port),
    'x-forwarded-proto': 'http',
    'x-amzn-trace-id': traceId(context.now),
  });
  const text = TEXT_TYPES.test(headers['content-type'] ?? '');
  return {
    version: '2.0',
    routeKey: context.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 && { cookies }),
    headers,
    ...(rawQueryString && { queryStringParameters: queryParameters(rawQueryString) }),
    ...(context.pathParameters &&
      Object.keys(context.pathParameters).length > 0 && { pathParameters: context.pathParameters }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split(/[.:]/)[0] ?? host,
      http: {
        method: req.method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: context.requestId,
      routeKey: context.routeKey,
      stage: '$default',
      time: clfTime(context.now),
      timeEpoch: context.now.getTime(),
    },
    ...(req.body.length > 0 && { body: req.body.toString(text ? 'utf8' : 'base64') }),
    isBase64Encoded: req.body.length > 0 && !text,
  };
}

/** Decoded values; a repeated key becomes one comma-joined value, as API Gateway sends it. */
export function queryParameters(rawQueryString: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    params[key] = key in params ? `${params[key]},${value}` : value;
  }
  return params;
}

/** The function's result (payload 2.0: no cookies, always a status) as the HTTP response; a status API Gateway could not map is its own 500. */
export function toHttpReply(result: unknown): HttpReply {
  const {
    statusCode,
    headers = {},
    body = '',
    isBase64Encoded,
  } = (result ?? {}) as {
    statusCode: number;
    headers?: Record<string, unknown>;
    body?: string;
    isBase64Encoded?: boolean;
  };
  if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    return errorReply(500, 'Internal Server Error');
  }
  return {
    statusCode,
    headers: Object.entries(headers).map(([name, value]) => [name, String(value)]),
    body: Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8'),
  };
}

/** An answer API Gateway gives itself (no route, body too large): its own `{"message"}` body, as AWS sends. */
export function errorReply(status: number, message: string): HttpReply {
  return {
    statusCode: status,
    headers: [['content-type', 'application/json']],
    body: Buffer.from(JSON.stringify({ message })),
  };
}

/** Shaped like API Gateway's own request ids, e.g. `JKJaXmPLvHcESHA=`. */
export const newRequestId = () => randomBytes(11).toString('base64');

/** `21/Nov/2026:12:00:00 +0000`, the common log format time of `requestContext.time`, from `Sat, 21 Nov 2026 12:00:00 GMT`. */
export function clfTime(date: Date): string {
  const [, day, month, year, time] = date.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}

/** X-Ray trace header as API Gateway adds it: `Root=1-<epoch seconds hex>-<96 random bits hex>`. */
const traceId = (now: Date) =>
  `Root=1-${Math.floor(now.getTime() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
