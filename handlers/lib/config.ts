// Configuration of the list-plants function, read from the environment once per container.

import {
  DEFAULT_GROUP_CACHE_MAX_BYTES,
  DEFAULT_GROUP_CACHE_TTL_SECONDS,
  ENV,
  type IssuerType,
  MAX_BASE_URL_LENGTH,
  MAX_GROUP_CACHE_MAX_BYTES,
  MAX_GROUP_CACHE_TTL_SECONDS,
  publicBase,
  REQUEST_LOG_MODES,
  type RequestLogMode,
} from './environment.ts';
import type { GroupCacheSettings } from './group-cache.ts';
import { isLoopbackHost } from './loopback.ts';
import { METRICS_NAMESPACE, SERVICE_NAME } from './telemetry-names.ts';

export interface Config {
  tableName: string;
  /** Only set for local emulators (dynalite, DynamoDB Local, moto); unset in AWS. */
  dynamodbEndpoint: string | undefined;
  maxPageSize: number;
  /** Base URL clients use (PUBLIC_BASE_URL): every next link is absolute under it (see public-url.ts). */
  publicBaseUrl: string | undefined;
  /**
   * Whether API Gateway filled the event's requestContext, so its execute-api host can be trusted
   * for next links. Not under `sam local` (AWS_SAM_LOCAL), which copies the client's Host there.
   */
  requestContextFromApiGateway: boolean;
  /** Reached only through the opt-in edge (BEHIND_EDGE): its middleware restores the caller's headers. */
  behindEdge: boolean;
  auth: AuthConfig;
  telemetry: TelemetryConfig;
  /** Group partition reads kept per container (see group-cache.ts). */
  groupCache: GroupCacheSettings;
}

/** What the function records about requests (see observability.ts). */
export interface TelemetryConfig {
  requestLog: RequestLogMode;
  /** The `service` dimension of every metric (POWERTOOLS_SERVICE_NAME, which the Tracer reads too). */
  service: string;
  /** CloudWatch namespace of the EMF metrics (POWERTOOLS_METRICS_NAMESPACE). */
  namespace: string;
  /** EMF metrics in the records; off where CloudWatch never reads them (`npm start`). */
  metrics: boolean;
  /** Indented records for a person at a terminal (POWERTOOLS_DEV). */
  pretty: boolean;
  /** The version serving: Lambda sets it, to the number when invoked through a version or alias. */
  version: string;
  /** How Lambda started this environment: `provisioned-concurrency` is no cold start for a caller. */
  initializationType: string | undefined;
}

export interface AuthConfig {
  issuer: string;
  /** OIDC audience, or the app client id(s) for a Cognito user pool. */
  audience: string[];
  /**
   * Which tokens are accepted: `access` or `id` (the `token_use` claim must say so), `not-id`
   * (the OIDC default: anything that does not mark itself as an ID token), or `any`.
   */
  tokenUse: 'access' | 'id' | 'not-id' | 'any';
  /** The longest lifetime (`exp` − `iat`, in seconds) a token may have. */
  maxTokenLifetime: number;
  jwksUri: string;
  /** Scope(s) the token must carry, or undefined when none is required. */
  requiredScope: string[] | undefined;
  /** Cognito access tokens carry `client_id` instead of `aud`. */
  isCognito: boolean;
  /** Claim naming the caller's groups (whose plants the caller may also read), or undefined: no sharing. */
  groupsClaim: string | undefined;
}

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
 * page read 10 and crossed it at 353 requests a second (npm run bench:scale, docs/scale.md).
 */
const DEFAULT_MAX_PAGE_SIZE = 100;
/** A page is read into memory and returned in one response (Lambda allows 6 MB): bound it. */
const MAX_MAX_PAGE_SIZE = 10_000;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // `iss` is compared exactly, so the issuer is kept as given: Auth0's ends in `/`, Cognito's
  // doesn't. Only paths built from it (the default JWKS URL) drop a trailing slash.
  const issuer = required(env, ENV.issuer);
  const issuerBase = issuer.replace(/\/+$/, '');
  const isCognito = readIssuerType(env, COGNITO_ISSUER.test(issuerBase) ? 'cognito' : 'oidc') === 'cognito';
  return {
    tableName: required(env, ENV.tableName),
    dynamodbEndpoint: optional(env, ENV.dynamodbEndpoint),
    maxPageSize: readMaxPageSize(env),
    publicBaseUrl: readPublicBaseUrl(env),
    requestContextFromApiGateway: env[ENV.samLocal] !== 'true',
    behindEdge: readBehindEdge(env),
    auth: {
      issuer,
      audience: list(required(env, ENV.audience)),
      tokenUse: readTokenUse(env, isCognito),
      maxTokenLifetime: readMaxTokenLifetime(env),
      jwksUri: readJwksUri(env, issuerBase),
      requiredScope: optional(env, ENV.requiredScope)?.split(/\s+/),
      isCognito,
      // Sharing is off unless a claim is configured.
      groupsClaim: readGroupsClaim(env, isCognito ? COGNITO_GROUPS_CLAIM : undefined),
    },
    telemetry: readTelemetry(env),
    groupCache: {
      ttlSeconds: readInteger(
        env,
        ENV.groupCacheTtlSeconds,
        DEFAULT_GROUP_CACHE_TTL_SECONDS,
        MAX_GROUP_CACHE_TTL_SECONDS,
      ),
      maxBytes: readInteger(env, ENV.groupCacheMaxBytes, DEFAULT_GROUP_CACHE_MAX_BYTES, MAX_GROUP_CACHE_MAX_BYTES),
    },
  };
}

/** A whole number from 0 to `max`, or `fallback` when unset. */
function readInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > max) {
    throw new ConfigError(`${name} must be an integer from 0 to ${max} (0 turns the group cache off), got "${raw}"`);
  }
  return value;
}

/**
 * Strictly `true` or `false`: behind the edge the Authorization header holds CloudFront's signature,
 * so a misspelt value must stop the function rather than have it read the wrong header.
 */
function readBehindEdge(env: NodeJS.ProcessEnv): boolean {
  const value = optional(env, ENV.behindEdge);
  if (value !== undefined && value !== 'true' && value !== 'false') {
    throw new ConfigError(`${ENV.behindEdge} must be true or false, got "${value}"`);
  }
  return value === 'true';
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
    metrics: optional(env, ENV.metricsDisabled)?.toLowerCase() !== 'true',
    pretty: optional(env, ENV.dev)?.toLowerCase() === 'true',
    version: optional(env, ENV.version) ?? '$LATEST',
    initializationType: optional(env, ENV.initializationType),
  };
}

function readMaxPageSize(env: NodeJS.ProcessEnv): number {
  const raw = optional(env, ENV.maxPageSize);
  if (raw === undefined) return DEFAULT_MAX_PAGE_SIZE;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > MAX_MAX_PAGE_SIZE) {
    throw new ConfigError(`${ENV.maxPageSize} must be an integer from 1 to ${MAX_MAX_PAGE_SIZE}, got "${raw}"`);
  }
  return value;
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
function readTokenUse(env: NodeJS.ProcessEnv, isCognito: boolean): AuthConfig['tokenUse'] {
  const raw = optional(env, ENV.tokenUse);
  if (raw === undefined) return isCognito ? 'access' : 'not-id';
  if (raw === 'access' || raw === 'id' || raw === 'any') return raw;
  throw new ConfigError(`${ENV.tokenUse} must be "access", "id" or "any", got "${raw}"`);
}

/** Auth0's default access token lifetime, and the longest a Cognito user pool issues. */
const DEFAULT_MAX_TOKEN_LIFETIME = 86_400;
/** Auth0's maximum: a bound that still refuses `exp` = 1e300. */
const MAX_MAX_TOKEN_LIFETIME = 2_592_000;

function readMaxTokenLifetime(env: NodeJS.ProcessEnv): number {
  const raw = optional(env, ENV.maxTokenLifetime);
  if (raw === undefined) return DEFAULT_MAX_TOKEN_LIFETIME;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 60 || value > MAX_MAX_TOKEN_LIFETIME) {
    throw new ConfigError(
      `${ENV.maxTokenLifetime} must be a number of seconds from 60 to ${MAX_MAX_TOKEN_LIFETIME}, got "${raw}"`,
    );
  }
  return value;
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

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
