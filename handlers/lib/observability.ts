// The per-request record (log line and EMF metrics in one, see request-record.ts), written when a
// request is refused or fails (or for every request, with REQUEST_LOG=all), and X-Ray traces with
// the Powertools Tracer when tracing is on.

import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { TelemetryConfig } from './environment.ts';
import { ForbiddenError, outcomeOfError, UnauthorizedError } from './errors.ts';
import type { ApiEvent } from './http.ts';
import { operationOf } from './operations.ts';
import { initRecord, isRecorded, requestRecord } from './request-record.ts';

type TracerModules = [
  typeof import('@aws-lambda-powertools/tracer'),
  typeof import('@aws-lambda-powertools/tracer/middleware'),
];
let tracerModules: Promise<TracerModules> | undefined;
let tracing: { tracer: Tracer; middleware: MiddlewareObj } | undefined;
/** AWS SDK clients made before the Tracer was: each is captured when tracing starts. */
const awsClients: object[] = [];

/**
 * Starts loading the Powertools Tracer where the configuration says Powertools would trace
 * (config.ts, `telemetry.tracing`): call it as soon as the configuration is read. Importing it
 * loads aws-xray-sdk-core, whose async-hooks hook taxes every invocation (~0.4 ms p50, 6–7 ms p99)
 * and whose code is ~120 KB of the cold start, even when tracing is off. The bundle is built with
 * code splitting, so the Tracer is a chunk read from disk only here, while init does its other work.
 */
export function loadTracer(config: TelemetryConfig): void {
  if (!config.tracing) return;
  tracerModules ??= Promise.all([
    import('@aws-lambda-powertools/tracer'),
    import('@aws-lambda-powertools/tracer/middleware'),
  ]);
}

/**
 * Creates the Tracer, once loadTracer has loaded it. Call it once init's own requests are on their
 * way: the Tracer records every request from then on, and before the first invocation there is no
 * trace to record them in (X-Ray would log "Missing AWS Lambda trace data").
 */
export async function startTracing(config: TelemetryConfig): Promise<void> {
  if (!tracerModules || tracing) return;
  const [{ Tracer }, { captureLambdaHandler }] = await tracerModules;
  const tracer = new Tracer({ serviceName: config.service });
  tracing = { tracer, middleware: captureLambdaHandler(tracer, { captureResponse: false }) };
  for (const client of awsClients.splice(0)) tracer.captureAWSv3Client(client);
}

/**
 * Gives each call of an AWS SDK client its own subsegment (service, operation, table, attempts),
 * whatever POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS says, once tracing starts; nothing when the
 * configuration does not trace.
 */
export function traceAwsClient(client: object): void {
  if (tracing) tracing.tracer.captureAWSv3Client(client);
  else if (tracerModules) awsClients.push(client);
}

/** The handler's X-Ray segment (the response itself is not recorded), or no middleware at all. */
export const traceHandler = (): MiddlewareObj[] => (tracing ? [tracing.middleware] : []);

// Per-invocation state is keyed by objects Middy and the runtime create per invocation (the
// request, the Lambda context), never kept in module variables: the local server, the load run and
// Lambda managed instances overlap invocations in one process.
const started = new WeakMap<object, { at: number; coldStart: boolean }>();
const notes = new WeakMap<object, { caller?: string; plantsReturned?: number }>();
let invoked = false;

/** Records the verified caller of this invocation, for its record. */
export function noteCaller(context: object, sub: string): void {
  notes.set(context, { ...notes.get(context), caller: sub });
}

/** Records how many plants this invocation returned (written only with REQUEST_LOG=all). */
export function notePlantsReturned(context: object, count: number): void {
  notes.set(context, { ...notes.get(context), plantsReturned: count });
}

/**
 * Writes one line to stdout itself. Not console.log: with Lambda's JSON log format the Node.js
 * runtime wraps console output in a JSON object of its own, with this record as an escaped string
 * (twice the bytes, and CloudWatch no longer finds the metrics in it). Not Powertools Logger and
 * Metrics either: they write the log line and the metrics as two objects, the metrics on every
 * invocation (or a warning when there are none), and their context fields on every line.
 */
function write(record: object, config: TelemetryConfig): void {
  process.stdout.write(`${JSON.stringify(record, null, config.pretty ? 4 : undefined)}\n`);
}

/** The init record: call once, when INIT is done (performance.now() counts from process start). */
export function recordInit(config: TelemetryConfig): void {
  write(initRecord(Math.round(performance.now()), config), config);
}

/**
 * One record for each refused or failed request (each request with REQUEST_LOG=all), written when
 * it is answered; successful requests write nothing by default, as the API access log has them.
 * Never the token, never the Authorization header: only the fields of RequestFacts are written.
 */
export function requestTelemetry(config: TelemetryConfig): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  const finish = (request: Request<ApiEvent, APIGatewayProxyResult>, status: number) => {
    if (!isRecorded(status, config)) return;
    const start = started.get(request);
    const note = notes.get(request.context);
    // errorResponses (http.ts) answers an error and leaves it where it was.
    const cause = request.error ?? undefined;
    const refused = cause instanceof UnauthorizedError || cause instanceof ForbiddenError;
    const facts = {
      operation: operationOf(request.event)?.operationId,
      outcome: status < 400 ? ('ok' as const) : outcomeOfError(cause),
      status,
      latencyMs: Math.round(performance.now() - (start?.at ?? performance.now())),
      coldStart: start?.coldStart ?? false,
      functionRequestId: request.context?.awsRequestId,
      apigwRequestId: request.event.requestContext?.requestId,
      caller: note?.caller,
      reason: refused ? cause.reason : undefined,
      plantsReturned: status < 400 ? note?.plantsReturned : undefined,
      error: status >= 500 ? cause : undefined,
      traceId: tracing?.tracer.getRootXrayTraceId(),
    };
    write(requestRecord(facts, config), config);
  };
  // Named, as Middy's own middlewares are, so that a profile or a stack trace says which one ran.
  const requestTelemetryBefore = (request: Request<ApiEvent, APIGatewayProxyResult>) => {
    const coldStart = !invoked && config.initializationType !== 'provisioned-concurrency';
    invoked = true;
    started.set(request, { at: performance.now(), coldStart });
  };
  const requestTelemetryAfter = (request: Request<ApiEvent, APIGatewayProxyResult>) =>
    finish(request, request.response?.statusCode ?? 200);
  const requestTelemetryOnError = (request: Request<ApiEvent, APIGatewayProxyResult>) =>
    finish(request, request.response?.statusCode ?? 500);
  return { before: requestTelemetryBefore, after: requestTelemetryAfter, onError: requestTelemetryOnError };
}
