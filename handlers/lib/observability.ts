// Structured logs, EMF metrics and X-Ray traces with Powertools, and the per-request telemetry.

import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { MiddlewareObj } from '@middy/core';
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
export const tracer = new Tracer({ serviceName });

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
 * One INFO line per request (method, path, status, latency; the caller's `sub` is appended by
 * the handler once known) and one `Requests` metric with its outcome as a dimension (which
 * `PlantsReturned` shares, flushed together by logMetrics). Never the token, never
 * the Authorization header: only the fields named here are written.
 */
export function requestTelemetry(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  let started = 0;
  const finish = (event: ApiEvent, status: number, error?: unknown) => {
    const outcome = outcomeOf(status);
    const [method, path] = requestLine(event);
    logger.info('request', { method, path, status, outcome, latency_ms: Math.round(performance.now() - started) });
    metrics.addDimension('outcome', outcome);
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    const cause = (error as { cause?: unknown } | undefined)?.cause;
    if (cause instanceof UnauthorizedError || cause instanceof ForbiddenError) {
      const failures = metrics.singleMetric();
      failures.addDimension('reason', cause.reason);
      failures.addMetric('AuthFailures', MetricUnit.Count, 1);
    }
  };
  return {
    before: (request) => {
      started = performance.now();
      logger.appendKeys({ apigw_request_id: request.event.requestContext?.requestId });
    },
    after: (request) => finish(request.event, request.response?.statusCode ?? 200),
    onError: (request) => finish(request.event, request.response?.statusCode ?? 500, request.error),
  };
}

function requestLine(event: ApiEvent): [string | undefined, string | undefined] {
  if ('rawPath' in event) return [event.requestContext?.http?.method, event.rawPath];
  return [event.httpMethod, event.path];
}
