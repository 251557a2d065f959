// Configuration of the list-plants function, read from the environment once per container.

import {
  type Config,
  DEFAULT_DYNAMODB_DEADLINE_MS,
  DEFAULT_GROUP_CACHE_MAX_BYTES,
  DEFAULT_GROUP_CACHE_TTL_SECONDS,
  DEFAULT_JWKS_TIMEOUT_MS,
  ENV,
  exactBoolean,
  type IssuerType,
  integerRange,
  list,
  MAX_BASE_URL_LENGTH,
  MAX_DYNAMODB_DEADLINE_MS,
  MAX_GROUP_CACHE_MAX_BYTES,
  MAX_GROUP_CACHE_TTL_SECONDS,
  MAX_JWKS_TIMEOUT_MS,
  MIN_DYNAMODB_DEADLINE_MS,
  publicBase,
  REQUEST_LOG_MODES,
  type RequestLogMode,
  type TelemetryConfig,
  type TokenUse,
  wholeNumberIn,
} from './environment.ts';
import { isLoopbackHost } from './loopback.ts';
import { METRICS_NAMESPACE, SERVICE_NAME } from './telemetry-names.ts';

/** Thrown at cold start when the environment is incomplete: the function must not serve. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

// A user pool's issuer, including the form pools with multi-Region replication use.
const COGNITO_ISSUER = /^https:\/\/(issuer-)?cognito-idp\.[a-z0-9-]+\.amazonaws\.com\/[\w-]+$/;
/** Where Cognito user pools name a user's groups, in access and id tokens alike. */
export const COGNITO_GROUPS_CLAIM = 'cognito:groups';
/**
 * The page a request without `limit` gets, and the most it may ask for (MAX_PAGE_SIZE raises it).
 * 100 plants keep a company-wide group's read at 1 read unit, so with the group cache its one
 * partition stays under DynamoDB's 3,000 units a second even at 10,000 warm containers; a 1,000
 * page read 10 and crossed it at 353 requests a second (npm run bench:scale -w lab, lab/docs/scale.md).
 */
const DEFAULT_MAX_PAGE_SIZE = 100;
/** A page is read into memory and returned in one response (Lambda allows 6 MB): bound it. */
const MAX_MAX_PAGE_SIZE = 10_000;

/** Auth0's default access token lifetime, and the longest a Cognito user pool issues. */
const DEFAULT_MAX_TOKEN_LIFETIME = 86_400;
/** Auth0's maximum: a bound that still refuses `exp` = 1e300. */
const MAX_MAX_TOKEN_LIFETIME = 2_592_000;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // `iss` is compared exactly, so the issuer is kept as given: Auth0's ends in `/`, Cognito's
  // doesn't. Only paths built from it (the default JWKS URL) drop a trailing slash.
  const issuer = required(env, ENV.issuer);
  const issuerBase = issuer.replace(/\/+$/, '');
  const issuerType = readIssuerType(env, COGNITO_ISSUER.test(issuerBase) ? 'cognito' : 'oidc');
  const isCognito = issuerType === 'cognito';
  return {
    tableName: required(env, ENV.tableName),
    dynamodbEndpoint: readDynamodbEndpoint(env),
    dynamodbDeadlineMs: readInteger(env, ENV.dynamodbDeadlineMs, {
      fallback: DEFAULT_DYNAMODB_DEADLINE_MS,
      min: MIN_DYNAMODB_DEADLINE_MS,
      max: MAX_DYNAMODB_DEADLINE_MS,
      note: 'milliseconds',
    }),
    aws: {
      // Lambda's, and every AWS tool's (the local CLIs read it too): not one of ENV's.
      region: optional(env, 'AWS_REGION'),
      useFipsEndpoint: readBoolean(env, ENV.useFipsEndpoint),
      useDualstackEndpoint: readBoolean(env, ENV.useDualstackEndpoint),
    },
    maxPageSize: readInteger(env, ENV.maxPageSize, { fallback: DEFAULT_MAX_PAGE_SIZE, min: 1, max: MAX_MAX_PAGE_SIZE }),
    publicBaseUrl: readPublicBaseUrl(env),
    publicHostHeader: readHeaderName(env, ENV.publicHostHeader),
    requestContextFromApiGateway: env[ENV.samLocal] !== 'true',
    auth: {
      issuer,
      audience: list(required(env, ENV.audience)),
      issuerType,
      tokenUse: readTokenUse(env, isCognito),
      maxTokenLifetime: readInteger(env, ENV.maxTokenLifetime, {
        fallback: DEFAULT_MAX_TOKEN_LIFETIME,
        min: 60,
        max: MAX_MAX_TOKEN_LIFETIME,
        note: 'seconds',
      }),
      jwksUri: readJwksUri(env, issuerBase),
      jwksTimeoutMs: readInteger(env, ENV.jwksTimeoutMs, {
        fallback: DEFAULT_JWKS_TIMEOUT_MS,
        min: 100,
        max: MAX_JWKS_TIMEOUT_MS,
        note: 'milliseconds',
      }),
      requiredScope: optional(env, ENV.requiredScope)?.split(/\s+/),
      // Sharing is off unless a claim is configured.
      groupsClaim: readGroupsClaim(env, isCognito ? COGNITO_GROUPS_CLAIM : undefined),
      tokenHeader: readHeaderName(env, ENV.tokenHeader) ?? 'authorization',
    },
    telemetry: readTelemetry(env),
    groupCache: {
      ttlSeconds: readInteger(env, ENV.groupCacheTtlSeconds, {
        fallback: DEFAULT_GROUP_CACHE_TTL_SECONDS,
        max: MAX_GROUP_CACHE_TTL_SECONDS,
        note: '0 turns the group cache off',
      }),
      maxBytes: readInteger(env, ENV.groupCacheMaxBytes, {
        fallback: DEFAULT_GROUP_CACHE_MAX_BYTES,
        max: MAX_GROUP_CACHE_MAX_BYTES,
        note: '0 turns the group cache off',
      }),
    },
  };
}

/** The variable as a whole number from `min` (default 0) to `max`, or `fallback` when unset. */
function readInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  { fallback, min = 0, max, note }: { fallback: number; min?: number; max: number; note?: string },
): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = wholeNumberIn(raw, min, max);
  if (value === undefined) {
    throw new ConfigError(`${name} must be ${integerRange(min, max)}${note ? ` (${note})` : ''}, got "${raw}"`);
  }
  return value;
}

/**
 * Powertools' own rule (Tracer.setTracingEnabled), read before loading it: on Lambda, unless
 * POWERTOOLS_TRACE_ENABLED=false; never under sam local or Amplify mock. The variable is read
 * strictly, so every value accepted means to Powertools what it means here.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  const executionEnv = env.AWS_EXECUTION_ENV ?? '';
  return (
    readBoolean(env, ENV.traceEnabled, true) &&
    executionEnv !== '' &&
    executionEnv !== 'AWS_Lambda_amplify-mock' &&
    !env[ENV.samLocal]
  );
}

function readTelemetry(env: NodeJS.ProcessEnv): TelemetryConfig {
  const requestLog = optional(env, ENV.requestLog) ?? 'failures';
  if (!(REQUEST_LOG_MODES as readonly string[]).includes(requestLog)) {
    throw new ConfigError(`${ENV.requestLog} must be one of ${REQUEST_LOG_MODES.join(', ')}, got "${requestLog}"`);
  }
  return {
    requestLog: requestLog as RequestLogMode,
    service: optional(env, ENV.service) ?? SERVICE_NAME,
    namespace: optional(env, ENV.namespace) ?? METRICS_NAMESPACE,
    metrics: !readBoolean(env, ENV.metricsDisabled),
    pretty: readBoolean(env, ENV.dev),
    tracing: tracingEnabled(env),
    version: optional(env, ENV.version) ?? '$LATEST',
    initializationType: optional(env, ENV.initializationType),
  };
}

// aws-jwt-verify fetches keys over https only: an http URL would turn every valid token into a
// failed request, so it is refused here, at cold start, where the deployment notices.
function readJwksUri(env: NodeJS.ProcessEnv, issuer: string): string {
  const raw = optional(env, ENV.jwksUri) ?? `${issuer}/.well-known/jwks.json`;
  if (parseHttps(raw) === undefined) {
    throw new ConfigError(
      `${ENV.jwksUri} must be an https URL (default: <${ENV.issuer}>/.well-known/jwks.json), got "${raw}"`,
    );
  }
  return raw;
}

/**
 * DynamoDB's endpoint when not AWS's own: https, or http where nothing crosses a network (loopback;
 * the Docker host under sam local), since every request carries the session token. The SDK refuses
 * FIPS and dual-stack with a custom endpoint at the first call: refused here, at cold start.
 */
function readDynamodbEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  const raw = optional(env, ENV.dynamodbEndpoint);
  if (raw === undefined) return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  const local = (host: string) =>
    isLoopbackHost(host) || (host === 'host.docker.internal' && env[ENV.samLocal] === 'true');
  if (!(parseHttps(raw) || (url?.protocol === 'http:' && local(url.hostname)))) {
    throw new ConfigError(
      `${ENV.dynamodbEndpoint} must be an https URL (http only on loopback: localhost, 127.x.x.x or [::1]), got "${raw}"`,
    );
  }
  const variants = [ENV.useFipsEndpoint, ENV.useDualstackEndpoint].filter((name) => readBoolean(env, name));
  if (variants.length > 0) throw new ConfigError(`${variants.join(' and ')} cannot apply to ${ENV.dynamodbEndpoint}`);
  return raw;
}

/**
 * The one strict boolean reader: "true" or "false" untrimmed, as the SDK reads its own boolean
 * variables (exactBoolean); unset or empty (sam local's way to unset) is `fallback`; anything else,
 * " true" and "true\n" included, stops the function.
 */
function readBoolean(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = exactBoolean(raw);
  if (value === undefined) throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
  return value;
}

// Plain http only where nothing crosses a network: `npm start` links to itself on loopback. A
// deployed base is https, or clients would send their bearer token in the clear.

function readPublicBaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = optional(env, ENV.publicBaseUrl);
  if (raw === undefined) return undefined;
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  const url = parseHttps(raw) ?? (parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname) ? parsed : undefined);
  const base = url && publicBase(raw, url);
  if (base === undefined) {
    throw new ConfigError(
      `${ENV.publicBaseUrl} must be an https URL (http only on loopback: localhost, 127.x.x.x or [::1]) without query, fragment or credentials, at most ${MAX_BASE_URL_LENGTH} characters, got "${raw}"`,
    );
  }
  return base;
}

// RFC 9110's token, the characters a field name may have: lower-cased, as events carry headers.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** A header name, lower-cased, or undefined when unset; anything that can't name a header stops the function. */
function readHeaderName(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined || HEADER_NAME.test(raw)) return raw;
  throw new ConfigError(`${name} must be an HTTP header name, got "${raw}"`);
}

function parseHttps(raw: string): URL | undefined {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  return url?.protocol === 'https:' && url.hostname !== '' ? url : undefined;
}

/**
 * AUTH_ISSUER_TYPE, else `fallback`: for the function the issuer URL's kind (Cognito-shaped tokens
 * can come from elsewhere too, so the URL only sets the default); the local issuer's own shape.
 */
export function readIssuerType(env: NodeJS.ProcessEnv, fallback: IssuerType): IssuerType {
  const raw = optional(env, ENV.issuerType) ?? fallback;
  if (raw === 'cognito' || raw === 'oidc') return raw;
  throw new ConfigError(`${ENV.issuerType} must be "cognito" or "oidc", got "${raw}"`);
}

/** AUTH_GROUPS_CLAIM, else `fallback`; `none` turns groups off (Cognito's default claim too). */
export function readGroupsClaim(env: NodeJS.ProcessEnv, fallback: string | undefined): string | undefined {
  const raw = optional(env, ENV.groupsClaim) ?? fallback;
  return raw === 'none' ? undefined : raw;
}

// Issuers sign ID and access tokens with one key set, and an ID token's `aud` can equal an API's
// audience (Entra ID, Keycloak): by default only access tokens pass. Cognito says which a token
// is in `token_use`; other issuers are told apart by what marks an ID token (auth/token-claims.ts).
function readTokenUse(env: NodeJS.ProcessEnv, isCognito: boolean): TokenUse {
  const raw = optional(env, ENV.tokenUse);
  if (raw === undefined) return isCognito ? 'access' : 'not-id';
  if (raw === 'access' || raw === 'id' || raw === 'not-id' || raw === 'any') return raw;
  throw new ConfigError(`${ENV.tokenUse} must be "access", "id", "not-id" or "any", got "${raw}"`);
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = optional(env, name);
  if (value === undefined) throw new ConfigError(`Missing required environment variable ${name}`);
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}
