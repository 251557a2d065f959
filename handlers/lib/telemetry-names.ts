// The names telemetry is found by: service, namespace, metrics and their dimensions, request
// outcomes, the API access log's fields. Plain strings for the function's record (request-record.ts),
// the stack's monitoring and telemetry, and the bench, which prices the records.

/** The `service` dimension of every metric and field of every record (POWERTOOLS_SERVICE_NAME). */
export const SERVICE_NAME = 'plant-store';
/** CloudWatch namespace of the function's EMF metrics (POWERTOOLS_METRICS_NAMESPACE). */
export const METRICS_NAMESPACE = 'PlantStore';

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
 * One JSON object per request, the one record every request gets. `lean` (the default) keeps what
 * an operator needs: the request id (the function's record of a refused or failed request carries
 * it too), client address, method, path, status, latency, size, and the gateway's own error;
 * with the gateway's JWT authorizer also the caller and why a token was refused. `full` is the
 * earlier, verbose set. A value that does not apply is written as "-".
 */
export function accessLogFields(format: AccessLogFormat, jwtAuthorizer: boolean): Record<string, string> {
  const authorizer: Record<string, string> = jwtAuthorizer
    ? { caller: '$context.authorizer.claims.sub', authorizerError: '$context.authorizer.error' }
    : {};
  if (format === 'lean') {
    return {
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      method: '$context.httpMethod',
      path: '$context.path',
      status: '$context.status',
      latencyMs: '$context.responseLatency',
      bytes: '$context.responseLength',
      error: '$context.error.message',
      integrationError: '$context.integrationErrorMessage',
      ...authorizer,
    };
  }
  return {
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    routeKey: '$context.routeKey',
    protocol: '$context.protocol',
    status: '$context.status',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationStatus: '$context.integrationStatus',
    integrationError: '$context.integrationErrorMessage',
    error: '$context.error.message',
    // Why the gateway's JWT authorizer refused a token (empty without one).
    authorizerError: '$context.authorizer.error',
    ...(jwtAuthorizer && { caller: '$context.authorizer.claims.sub' }),
  };
}
