// The one record a request writes: its log line and its CloudWatch metrics (embedded metric format,
// EMF) in a single JSON object, serialised once. Pure: observability.ts decides when to write one.

import type { TelemetryConfig } from './environment.ts';
import { DIMENSIONS, type Dimension, METRICS, type Outcome } from './telemetry-names.ts';

/** Whether a request with this status writes its record: every refused or failed one, and with REQUEST_LOG=all every one. */
export function isRecorded(status: number, config: TelemetryConfig): boolean {
  return status >= 400 || config.requestLog === 'all';
}

/** What is known of a request when it is answered; only these fields are ever written. */
export interface RequestFacts {
  operation: string | undefined;
  status: number;
  outcome: Outcome;
  latencyMs: number;
  coldStart: boolean;
  functionRequestId: string | undefined;
  apigwRequestId: string | undefined;
  caller?: string | undefined;
  reason?: string | undefined;
  plantsReturned?: number | undefined;
  /** What caused a 5xx, with its stack: for the operator, never for the caller. */
  error?: unknown;
  traceId?: string | undefined;
}

interface Metric {
  name: string;
  unit: 'Count' | 'Milliseconds';
  value: number;
  /** Names of top-level fields whose values are the metric's dimensions, besides `service`. */
  dimensions: Dimension[];
}

/** A request's record and metrics (docs/operations.md): each metric keeps its own dimensions, multiplied by no other's. */
export function requestRecord(facts: RequestFacts, config: TelemetryConfig, now = Date.now()) {
  const { outcome } = facts;
  const serverError = facts.status >= 500;
  const byOutcome = [DIMENSIONS.outcome];
  const metrics: Metric[] = [{ name: METRICS.requests, unit: 'Count', value: 1, dimensions: byOutcome }];
  if (facts.plantsReturned !== undefined) {
    metrics.push({ name: METRICS.plantsReturned, unit: 'Count', value: facts.plantsReturned, dimensions: byOutcome });
  }
  if (facts.reason !== undefined)
    metrics.push({ name: METRICS.authFailures, unit: 'Count', value: 1, dimensions: [DIMENSIONS.reason] });
  if (serverError)
    metrics.push({ name: METRICS.serverErrors, unit: 'Count', value: 1, dimensions: [DIMENSIONS.version] });
  return {
    level: serverError ? 'ERROR' : 'INFO',
    message: 'request',
    timestamp: new Date(now).toISOString(),
    // EMF reads each dimension's value from the field of that name (service, outcome, reason, version).
    service: config.service,
    function_request_id: facts.functionRequestId,
    apigw_request_id: facts.apigwRequestId,
    operation: facts.operation,
    status: facts.status,
    outcome,
    reason: facts.reason,
    caller: facts.caller,
    latency_ms: facts.latencyMs,
    cold_start: facts.coldStart,
    version: serverError ? config.version : undefined,
    xray_trace_id: facts.traceId,
    error: serverError ? describeError(facts.error) : undefined,
    ...embeddedMetrics(metrics, config, now),
  };
}

/** Once per environment, at the end of INIT: a cold start and how long INIT took, as the function saw it. */
export function initRecord(initMs: number, config: TelemetryConfig, now = Date.now()) {
  const metrics: Metric[] = [{ name: METRICS.initDuration, unit: 'Milliseconds', value: initMs, dimensions: [] }];
  if (config.initializationType !== 'provisioned-concurrency') {
    metrics.unshift({ name: METRICS.coldStart, unit: 'Count', value: 1, dimensions: [] });
  }
  return {
    level: 'INFO',
    message: 'init',
    timestamp: new Date(now).toISOString(),
    service: config.service,
    init_ms: initMs,
    initialization_type: config.initializationType,
    ...embeddedMetrics(metrics, config, now),
  };
}

/**
 * The EMF directive (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html):
 * one per distinct dimension set, the values as top-level fields. Nothing when metrics are off.
 */
function embeddedMetrics(metrics: Metric[], config: TelemetryConfig, now: number) {
  if (!config.metrics) return {};
  const bySet = new Map<string, Metric[]>();
  for (const metric of metrics) {
    const key = metric.dimensions.join(',');
    bySet.set(key, [...(bySet.get(key) ?? []), metric]);
  }
  const directives = [...bySet.values()].map((group) => ({
    Namespace: config.namespace,
    Dimensions: [[DIMENSIONS.service, ...(group[0]?.dimensions ?? [])]],
    Metrics: group.map(({ name, unit }) => ({ Name: name, Unit: unit })),
  }));
  return {
    _aws: { Timestamp: now, CloudWatchMetrics: directives },
    ...Object.fromEntries(metrics.map(({ name, value }) => [name, value])),
  };
}

const MAX_CAUSES = 3;

function describeError(error: unknown, depth = 0): object | undefined {
  if (error === undefined || error === null) return undefined;
  if (!(error instanceof Error)) return { message: String(error) };
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    cause: depth < MAX_CAUSES ? describeError(error.cause, depth + 1) : undefined,
  };
}
