// What the deployed stack records per request: function record, access log, platform records, X-Ray.

import { functionEnvironment, REQUEST_LOG_MODES, type RequestLogMode } from '../handlers/lib/environment.ts';
import {
  ACCESS_LOG_FORMATS,
  type AccessLogFormat,
  METRICS_NAMESPACE,
  SERVICE_NAME,
} from '../handlers/lib/telemetry-names.ts';
import { type ContextReader, flag, oneOf } from './context-values.ts';

export type { RequestLogMode } from '../handlers/lib/environment.ts';
export const LOG_CLASSES = ['infrequent', 'standard'] as const;
export const SYSTEM_LOG_LEVELS = ['WARN', 'INFO', 'DEBUG'] as const;

/** The telemetry settings by `-c` key (docs/deploy.md). */
export interface TelemetrySettings {
  requestLog: RequestLogMode;
  accessLog: AccessLogFormat;
  accessLogClass: (typeof LOG_CLASSES)[number];
  /** X-Ray active tracing. */
  tracing: boolean;
  systemLogLevel: (typeof SYSTEM_LOG_LEVELS)[number];
}

/** Retention of both log groups, in days (a CloudWatch Logs retention value); storage is priced with it. */
export const LOG_RETENTION_DAYS = 30;

export const DEFAULT_TELEMETRY: TelemetrySettings = {
  requestLog: 'failures',
  accessLog: 'lean',
  accessLogClass: 'infrequent',
  tracing: false,
  systemLogLevel: 'WARN',
};

export function readTelemetry(context: ContextReader): TelemetrySettings {
  const upper: ContextReader = (key) => {
    const value = context(key);
    return typeof value === 'string' ? value.trim().toUpperCase() : value;
  };
  return {
    requestLog: oneOf(context, 'requestLog', REQUEST_LOG_MODES) ?? DEFAULT_TELEMETRY.requestLog,
    accessLog: oneOf(context, 'accessLog', ACCESS_LOG_FORMATS) ?? DEFAULT_TELEMETRY.accessLog,
    accessLogClass: oneOf(context, 'accessLogClass', LOG_CLASSES) ?? DEFAULT_TELEMETRY.accessLogClass,
    tracing: flag(context, 'tracing'),
    systemLogLevel: oneOf(upper, 'systemLogLevel', SYSTEM_LOG_LEVELS) ?? DEFAULT_TELEMETRY.systemLogLevel,
  };
}

/** The function's environment for its telemetry, as the stack sets it (the benchmark runs with it too). */
export function telemetryEnvironment(
  { requestLog, tracing }: TelemetrySettings,
  service = SERVICE_NAME,
): Record<string, string> {
  return functionEnvironment({
    telemetry: {
      // The service (one per environment) and namespace the dashboard and alarms read.
      service,
      namespace: METRICS_NAMESPACE,
      requestLog,
      // Without it Powertools would load the Tracer on Lambda, and its per-invocation hook, for nothing.
      ...(!tracing && { tracing: false }),
    },
  });
}
