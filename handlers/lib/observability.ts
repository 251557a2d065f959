// Structured logs, EMF metrics and X-Ray traces with Powertools, and the per-request telemetry.

import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ForbiddenError, UnauthorizedError } from './errors.ts';
import type { ApiEvent } from './http.ts';

// Level (POWERTOOLS_LOG_LEVEL), debug sampling (POWERTOOLS_LOGGER_SAMPLE_RATE) and tracing
// switches come from the environment, as Powertools documents them.
const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? 'plant-store';
export const logger = new Logger({ serviceName });
export const metrics = new Metrics({
  serviceName,
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'PlantStore',
});

/**
 * The Powertools Tracer, loaded only where Powertools would trace (on Lambda, unless
 * POWERTOOLS_TRACE_ENABLED=false; never under sam local or Amplify mock): importing it loads
 * aws-xray-sdk-core, whose async-hooks hook taxes every invocation (~0.4 ms p50, 6–7 ms p99) and
 * whose code is ~120 KB of the cold start, even when tracing is off. The bundle is built with code
 * splitting, so the Tracer is a chunk read from disk only here; its import starts at once.
 */
const tracerModules = tracingEnabled(process.env)
  ? Promise.all([import('@aws-lambda-powertools/tracer'), import('@aws-lambda-powertools/tracer/middleware')])
  : undefined;
let tracing: { tracer: Tracer; middleware: MiddlewareObj } | undefined;

/**
 * Creates the Tracer when tracing is enabled. Call it once init's own requests are on their way:
 * the Tracer records every HTTPS request from then on, and before the first invocation there is
 * no trace to record them in (X-Ray would log "Missing AWS Lambda trace data").
 */
export async function startTracing(): Promise<void> {
  if (!tracerModules || tracing) return;
  const [{ Tracer }, { captureLambdaHandler }] = await tracerModules;
  const tracer = new Tracer({ serviceName });
  tracing = { tracer, middleware: captureLambdaHandler(tracer, { captureResponse: false }) };
}

/** Powertools' own rule (Tracer.setTracingEnabled), read before loading it. */
export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  const executionEnv = env.AWS_EXECUTION_ENV ?? '';
  return (
    env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false' &&
    executionEnv !== '' &&
    executionEnv !== 'AWS_Lambda_amplify-mock' &&
    !env.AWS_SAM_LOCAL
  );
}

/** The handler's X-Ray segment (the response itself is not recorded), or no middleware at all. */
export const traceHandler = (): MiddlewareObj[] => (tracing ? [tracing.middleware] : []);

/** The client with a subsegment per DynamoDB call when tracing, else the client untouched (after startTracing). */
export const traceClient = <Client>(client: Client): Client =>
  tracing ? tracing.tracer.captureAWSv3Client(client) : client;

// Per-invocation state is keyed by objects Middy and the runtime create per invocation (the
// request, the Lambda context), never kept in module variables or on the shared logger: the
// local server, the load run and Lambda managed instances overlap invocations in one process.
const started = new WeakMap<object, number>();
const callers = new WeakMap<object, string>();

/** Records the verified caller of this invocation for its access log line. */
export function noteCaller(context: object, sub: string): void {
  callers.set(context, sub);
}

export type Outcome = 'ok' | 'bad_request' | 'unauthorized' | 'forbidden' | 'unavailable' | 'error';

export function outcomeOf(status: number): Outcome {
  if (status < 400) return 'ok';
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 503) return 'unavailable';
  return 'error';
}

/**
 * One INFO line per request (method, path, status, latency, and the caller's `sub` once the
 * handler has noted it) and one `Requests` metric with its outcome as a dimension (which
 * `PlantsReturned` shares, flushed together by logMetrics). Never the token, never
 * the Authorization header: only the fields named here are written.
 */
export function requestTelemetry(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  const finish = (request: Request<ApiEvent, APIGatewayProxyResult>, status: number) => {
    const outcome = outcomeOf(status);
    const [method, path] = requestLine(request.event);
    logger.info('request', {
      method,
      path,
      status,
      outcome,
      latency_ms: Math.round(performance.now() - (started.get(request) ?? performance.now())),
      caller: callers.get(request.context),
      apigw_request_id: request.event.requestContext?.requestId,
    });
    metrics.addDimension('outcome', outcome);
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    const cause = (request.error as { cause?: unknown } | null | undefined)?.cause;
    if (cause instanceof UnauthorizedError || cause instanceof ForbiddenError) {
      const failures = metrics.singleMetric();
      failures.addDimension('reason', cause.reason);
      failures.addMetric('AuthFailures', MetricUnit.Count, 1);
    }
  };
  return {
    before: (request) => {
      started.set(request, performance.now());
    },
    after: (request) => finish(request, request.response?.statusCode ?? 200),
    onError: (request) => finish(request, request.response?.statusCode ?? 500),
  };
}

function requestLine(event: ApiEvent): [string | undefined, string | undefined] {
  if ('rawPath' in event) return [event.requestContext?.http?.method, event.rawPath];
  return [event.httpMethod, event.path];
}
