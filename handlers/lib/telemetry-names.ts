// The names telemetry is found by: service, namespace, metrics and their dimensions, request
// outcomes, the API access log's fields. Plain strings for the function's record (request-record.ts),
// the stack's monitoring and telemetry, and the bench, which prices the records.

import { SERVICE_NAME, SERVICE_TITLE } from './names.ts';

/** The `service` dimension of every metric and field of every record (POWERTOOLS_SERVICE_NAME). */
export { SERVICE_NAME };
/** CloudWatch namespace of the function's EMF metrics (POWERTOOLS_METRICS_NAMESPACE). */
export const METRICS_NAMESPACE = SERVICE_TITLE;

/** The function's EMF metrics. */
export const METRICS = {
  requests: 'Requests',
  plantsReturned: 'PlantsReturned',
  authFailures: 'AuthFailures',
  serverErrors: 'ServerErrors',
  coldStart: 'ColdStart',
  initDuration: 'InitDuration',
} as const;

/** The metrics' dimensions, each also a field of the record that carries its value (EMF). */
export const DIMENSIONS = { service: 'service', outcome: 'outcome', reason: 'reason', version: 'version' } as const;
export type Dimension = (typeof DIMENSIONS)[keyof typeof DIMENSIONS];

/** A request's outcome, the `outcome` dimension of `Requests`: `ok`, else why it was refused or failed. */
export const OUTCOMES = ['ok', 'bad_request', 'unauthorized', 'forbidden', 'unavailable', 'error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The API access log's field sets (-c accessLog). */
export const ACCESS_LOG_FORMATS = ['lean', 'full'] as const;
export type AccessLogFormat = (typeof ACCESS_LOG_FORMATS)[number];

/**
 * The access log's fields (docs/operations.md lists them): each of a size the caller cannot choose
 * (the matched route, not the raw path; no user agent), so a flood of long requests bills no more.
 */
export function accessLogFields(format: AccessLogFormat, jwtAuthorizer: boolean): Record<string, string> {
  const authorizer: Record<string, string> = jwtAuthorizer
    ? { caller: '$context.authorizer.claims.sub', authorizerError: '$context.authorizer.error' }
    : {};
  const lean = {
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    route: '$context.routeKey',
    status: '$context.status',
    latencyMs: '$context.responseLatency',
    bytes: '$context.responseLength',
    error: '$context.error.message',
    integrationError: '$context.integrationErrorMessage',
  };
  if (format === 'lean') return { ...lean, ...authorizer };
  return {
    ...lean,
    requestTime: '$context.requestTime',
    protocol: '$context.protocol',
    integrationLatency: '$context.integrationLatency',
    integrationStatus: '$context.integrationStatus',
    // Why the gateway's JWT authorizer refused a token (empty without one).
    authorizerError: '$context.authorizer.error',
    ...authorizer,
  };
}
