// The log records only AWS writes, rendered with realistic values so their bytes can be counted:
// the HTTP API access log from the stack's own format (infra/api.ts), and Lambda's platform records
// in the JSON log format, shaped as the Lambda Developer Guide documents them ("Using structured
// JSON format with system logs"; the Telemetry API schema reference for the `tracing` field) and as
// CloudWatch shows them for a Node.js function in 2026 (`functionArn` in platform.start).

import { LIST_PLANTS, MAX_ROUTE_KEY_LENGTH, routeKeyOf } from '../../handlers/lib/operations.ts';
import { accessLogFields } from '../../handlers/lib/telemetry-names.ts';
import { FUNCTION_MEMORY_MB } from '../../infra/function-runtime.ts';
import type { TelemetrySettings } from '../../infra/telemetry.ts';

/** What is known of one answered request, to fill in the records. */
export interface AnsweredRequest {
  status: number;
  /** The function's duration, ms. */
  durationMs: number;
  bodyBytes: number;
}

// Realistic values, at their usual lengths: an API Gateway request id (16 characters), a Lambda
// request id (a UUID), a CDK-named function, an IPv4 client address of the longest form.
const API_REQUEST_ID = 'Jx4kXhXdoAMEV7A=';
const LAMBDA_REQUEST_ID = '8f6a0c41-2c3e-4a3b-9a8e-1d2c3b4a5f60';
const FUNCTION_ARN =
  'arn:aws:lambda:us-east-1:123456789012:function:PlantStore-ListPlantsFunction1A2B3C4D-AbCdEfGhIjKl';
const TIME = '2026-11-20T10:11:12.345Z';
const TRACING = {
  spanId: '6b2e1f6a9c3d4e5f',
  type: 'X-Amzn-Trace-Id',
  value: 'Root=1-6740a1b2-0123456789abcdef01234567;Parent=6b2e1f6a9c3d4e5f;Sampled=1',
};
/** The gateway's own share of a request's latency, on top of the function's duration. */
const GATEWAY_MS = 8;

const ACCESS_LOG_VALUES: Record<string, (request: AnsweredRequest) => string> = {
  '$context.requestId': () => API_REQUEST_ID,
  '$context.requestTime': () => '20/Nov/2026:10:11:12 +0000',
  '$context.identity.sourceIp': () => '198.51.100.123',
  '$context.routeKey': () => routeKeyOf(LIST_PLANTS),
  '$context.protocol': () => 'HTTP/1.1',
  '$context.status': (r) => String(r.status),
  '$context.responseLength': (r) => String(r.bodyBytes),
  '$context.responseLatency': (r) => String(Math.ceil(r.durationMs) + GATEWAY_MS),
  '$context.integrationLatency': (r) => String(Math.ceil(r.durationMs) + 1),
  '$context.integrationStatus': () => '200',
  // Set only when the gateway itself fails the request (a crash, a timeout, throttling).
  '$context.integrationErrorMessage': () => '-',
  '$context.error.message': () => '-',
  '$context.authorizer.error': () => '-',
  '$context.authorizer.claims.sub': () => LAMBDA_REQUEST_ID,
};

/**
 * The longest value each variable can take (infra/api.ts writes only these: test/infra/api.test.ts),
 * for the largest line a flood can write: the longest IPv6 address, route key (its bound), a 6 MB
 * response, the 30 s integration timeout, AWS's messages at 128 bytes (their longest is not
 * documented), a 255-byte `sub` (OpenID Connect's limit).
 */
const LARGEST_VALUES: Record<string, string> = {
  '$context.requestId': API_REQUEST_ID,
  '$context.requestTime': '20/Nov/2026:10:11:12 +0000',
  '$context.identity.sourceIp': 'ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255',
  // The longest the table allows, not today's routes: a new route moves no figure.
  '$context.routeKey': 'x'.repeat(MAX_ROUTE_KEY_LENGTH),
  '$context.protocol': 'HTTP/1.1',
  '$context.status': '429',
  '$context.responseLength': '6291456',
  '$context.responseLatency': '30000',
  '$context.integrationLatency': '30000',
  '$context.integrationStatus': '500',
  '$context.integrationErrorMessage': 'x'.repeat(128),
  '$context.error.message': 'x'.repeat(128),
  '$context.authorizer.error': 'x'.repeat(128),
  '$context.authorizer.claims.sub': 'x'.repeat(255),
};

const fill = (settings: TelemetrySettings, jwtAuthorizer: boolean, value: (variable: string) => string | undefined) =>
  JSON.stringify(accessLogFields(settings.accessLog, jwtAuthorizer)).replace(/\$context\.[A-Za-z.]+/g, (variable) => {
    const found = value(variable);
    if (found === undefined) throw new Error(`No value for ${variable}: add one to lab/cost/aws-records.ts`);
    return JSON.stringify(found).slice(1, -1);
  });

/** One access log record as API Gateway writes it for this request. */
export const accessLogRecord = (settings: TelemetrySettings, request: AnsweredRequest, jwtAuthorizer = false) =>
  fill(settings, jwtAuthorizer, (variable) => ACCESS_LOG_VALUES[variable]?.(request));

/** The largest access log record this format can write, whatever the caller sends. */
export const largestAccessLogRecord = (settings: TelemetrySettings, jwtAuthorizer = false) =>
  fill(settings, jwtAuthorizer, (variable) => LARGEST_VALUES[variable]);

/** API Gateway's own answer when its JWT authorizer refuses a token (-c jwtAuthorizer=true). */
export const AUTHORIZER_REFUSAL = {
  statusCode: 401,
  headers: { 'Content-Type': 'application/json' },
  body: '{"message":"Unauthorized"}',
};

/** API Gateway's own answer past the throttle, as HTTP API sends it. */
export const THROTTLED_RESPONSE = {
  statusCode: 429,
  headers: { 'Content-Type': 'application/json' },
  body: '{"message":"Too Many Requests"}',
};

/**
 * Lambda's platform records for one invocation at the configured system log level: none at WARN
 * for an invocation that returned (a timeout, a crash or a failed INIT is still reported),
 * platform.start and platform.report at INFO, platform.runtimeDone too at DEBUG.
 */
export function platformRecords(
  settings: TelemetrySettings,
  request: AnsweredRequest & { maxMemoryUsedMB: number },
): string[] {
  if (settings.systemLogLevel === 'WARN') return [];
  const tracing = settings.tracing ? { tracing: TRACING } : {};
  const metrics = {
    durationMs: Math.round(request.durationMs * 1000) / 1000,
    billedDurationMs: Math.max(1, Math.ceil(request.durationMs)),
    memorySizeMB: FUNCTION_MEMORY_MB,
    maxMemoryUsedMB: request.maxMemoryUsedMB,
  };
  const records: object[] = [
    {
      time: TIME,
      type: 'platform.start',
      record: { requestId: LAMBDA_REQUEST_ID, functionArn: FUNCTION_ARN, version: '7', ...tracing },
    },
    {
      time: TIME,
      type: 'platform.report',
      record: { requestId: LAMBDA_REQUEST_ID, metrics, ...tracing, status: 'success' },
    },
  ];
  if (settings.systemLogLevel === 'DEBUG') {
    records.push({
      time: TIME,
      type: 'platform.runtimeDone',
      record: {
        requestId: LAMBDA_REQUEST_ID,
        status: 'success',
        ...tracing,
        spans: [{ name: 'responseLatency', start: TIME, durationMs: metrics.durationMs }],
        metrics: { durationMs: metrics.durationMs, producedBytes: request.bodyBytes },
      },
    });
  }
  return records.map((record) => JSON.stringify(record));
}

/** What Lambda adds at a cold start: platform.initStart at INFO (initReport and initRuntimeDone at DEBUG). */
export function platformInitRecords(settings: TelemetrySettings, initMs: number): string[] {
  if (settings.systemLogLevel === 'WARN') return [];
  const init = { initializationType: 'on-demand', phase: 'init' };
  const records: object[] = [
    {
      time: TIME,
      type: 'platform.initStart',
      record: {
        ...init,
        runtimeVersion: 'nodejs:24.v21',
        runtimeVersionArn:
          'arn:aws:lambda:us-east-1::runtime:775dab0d220a0b97f3ec34fe1692d7a07b5d13049153b00f03204c9543bd69e4',
        functionName: 'PlantStore-ListPlantsFunction1A2B3C4D-AbCdEfGhIjKl',
        functionVersion: '7',
        instanceId: '2026/11/20/PlantStore-ListPlantsFunction1A2B3C4D-AbCdEfGhIjKl[7]22be53a8cfde4e68b844f8ec293b2543',
        instanceMaxMemory: FUNCTION_MEMORY_MB * 1024 * 1024,
      },
    },
  ];
  if (settings.systemLogLevel === 'DEBUG') {
    records.push(
      { time: TIME, type: 'platform.initRuntimeDone', record: { ...init, status: 'success' } },
      { time: TIME, type: 'platform.initReport', record: { ...init, metrics: { durationMs: initMs } } },
    );
  }
  return records.map((record) => JSON.stringify(record));
}

/**
 * The response as API Gateway sends it over HTTP/1.1 (status line, its own headers, the function's,
 * the body): what internet data transfer bills, TCP/IP and TLS framing left out (a few percent).
 */
export function responseBytes(response: {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
}): number {
  const body = Buffer.byteLength(response.body);
  const headers = {
    Date: 'Fri, 20 Nov 2026 10:11:12 GMT',
    'Content-Length': String(body),
    Connection: 'keep-alive',
    'Apigw-Requestid': API_REQUEST_ID,
    ...response.headers,
  };
  const head = [`HTTP/1.1 ${response.statusCode} OK`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return Buffer.byteLength(`${head.join('\r\n')}\r\n\r\n`) + body;
}
