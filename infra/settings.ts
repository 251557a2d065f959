// Deploy-time settings, read once from CDK context and checked before any resource is defined.

import {
  type GroupCacheConfig,
  list,
  MAX_BASE_URL_LENGTH,
  MAX_GROUP_CACHE_MAX_BYTES,
  MAX_GROUP_CACHE_TTL_SECONDS,
  publicBase,
} from '../handlers/lib/environment.ts';
import { type Ceiling, readCeiling } from './ceiling.ts';
import { refuseUnknownKeys } from './context-keys.ts';
import { type ContextReader, decimal, flag, integer, oneOf, SettingsError, text } from './context-values.ts';
import { type CustomDomain, readCustomDomain } from './custom-domain.ts';
import { type DeliverySettings, readDelivery } from './delivery-settings.ts';
import { FUNCTION_MEMORY_MB, FUNCTION_MEMORY_RANGE_MB, FUNCTION_TIMEOUT_SECONDS } from './function-runtime.ts';
import { type IdentitySettings, readIdentity } from './identity-settings.ts';
import { environmentOf } from './stack-environment.ts';
import { readTelemetry, type TelemetrySettings } from './telemetry.ts';

export type { ContextReader } from './context-values.ts';
export { SettingsError } from './context-values.ts';

/** The settings by `-c` key, each with its default and meaning in docs/deploy.md's tables. */
export interface StackSettings {
  dev: boolean;
  ceiling: Ceiling;
  corsOrigins: string[];
  identity: IdentitySettings;
  jwtAuthorizer: boolean;
  customDomain: CustomDomain | undefined;
  /** The URL clients use when a proxy or CDN fronts the API: the base of every next link. */
  publicBaseUrl: string | undefined;
  samLocal: boolean;
  architecture: 'arm64' | 'x86_64';
  memoryMb: number;
  telemetry: TelemetrySettings;
  sourceMaps: boolean;
  alarms: AlarmSettings;
  delivery: DeliverySettings;
  /** The function's group cache, where set; unset values keep the function's defaults (config.ts). */
  groupCache: Partial<GroupCacheConfig>;
  environment: string;
}

export interface AlarmSettings {
  email: string | undefined;
  errorRatePercent: number;
  minRequests: number;
  p99Ms: number;
}

/**
 * `givenKeys`: every context key set, so that an unknown one is refused rather than ignored; the known
 * ones are those read here, the stack name (app.ts) and `optionKeys`, those the options read (infra/options.ts).
 */
export function readSettings(
  context: ContextReader,
  givenKeys: Iterable<string> = [],
  optionKeys: readonly string[] = [],
): StackSettings {
  const known = new Set(['stackName']);
  const settings = readEachKey((key) => {
    known.add(key);
    return context(key);
  });
  refuseUnknownKeys(givenKeys, [...known, ...optionKeys]);
  return settings;
}

function readEachKey(context: ContextReader): StackSettings {
  const dev = flag(context, 'dev');
  const alarmEmail = text(context, 'alarmEmail');
  const ceiling = readCeiling(context);
  const delivery = readDelivery(context, dev);
  // Lambda refuses provisioned concurrency above the function's reserved concurrency.
  if (ceiling.reserveConcurrency && delivery.provisionedConcurrency > ceiling.concurrency) {
    throw new SettingsError(
      `provisionedConcurrency (${delivery.provisionedConcurrency}) must not exceed the reserved concurrency ` +
        `that maxRequestsPerSecond=${ceiling.maxRequestsPerSecond} sets (${ceiling.concurrency})`,
    );
  }
  return {
    dev,
    ceiling,
    corsOrigins: list(text(context, 'corsOrigins')),
    identity: readIdentity(context),
    jwtAuthorizer: flag(context, 'jwtAuthorizer'),
    customDomain: readCustomDomain(context),
    publicBaseUrl: readPublicBaseUrl(context),
    samLocal: flag(context, 'samLocal'),
    architecture: oneOf(context, 'architecture', ['arm64', 'x86_64'] as const) ?? 'arm64',
    memoryMb: integer(context, 'memoryMb', FUNCTION_MEMORY_MB, ...FUNCTION_MEMORY_RANGE_MB),
    telemetry: readTelemetry(context),
    sourceMaps: flag(context, 'sourceMaps'),
    alarms: {
      email: alarmEmail,
      errorRatePercent: decimal(context, 'alarmErrorRatePercent', 1, { min: 0, max: 100 }),
      minRequests: integer(context, 'alarmMinRequests', 10),
      // A threshold at or past the timeout could never be crossed.
      p99Ms: integer(context, 'alarmP99Ms', 3000, 1, FUNCTION_TIMEOUT_SECONDS * 1000 - 1),
    },
    delivery,
    groupCache: readGroupCache(context),
    environment: environmentOf(context),
  };
}

// Checked with the function's own bounds, so a bad value fails the synth rather than a cold start.
function readGroupCache(context: ContextReader): Partial<GroupCacheConfig> {
  const given = (key: string, max: number) =>
    text(context, key) === undefined ? undefined : integer(context, key, 0, 0, max);
  const ttlSeconds = given('groupCacheSeconds', MAX_GROUP_CACHE_TTL_SECONDS);
  const maxBytes = given('groupCacheMaxBytes', MAX_GROUP_CACHE_MAX_BYTES);
  return { ...(ttlSeconds !== undefined && { ttlSeconds }), ...(maxBytes !== undefined && { maxBytes }) };
}

// The function refuses the same at cold start; here the mistake shows at synth, before a deploy.
function readPublicBaseUrl(context: ContextReader): string | undefined {
  const value = text(context, 'publicBaseUrl');
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  // Normalized and refused exactly as the function reads PUBLIC_BASE_URL.
  const base = url?.protocol === 'https:' ? publicBase(value, url) : undefined;
  if (base === undefined) {
    throw new SettingsError(
      `publicBaseUrl must be an https URL without query, fragment or credentials, at most ${MAX_BASE_URL_LENGTH} characters, got "${value}"`,
    );
  }
  return base;
}
