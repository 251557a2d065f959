// The function's environment: every variable's name, written once, the writer the stack, the local
// server, sam local and the lab build it with (config.ts reads it through the same names), and
// what the values may be.

/** The name of each variable the function reads, by the setting it carries. */
export const ENV = {
  tableName: 'PLANTS_TABLE_NAME',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  dynamodbDeadlineMs: 'DYNAMODB_DEADLINE_MS',
  maxPageSize: 'MAX_PAGE_SIZE',
  issuer: 'AUTH_ISSUER',
  issuerType: 'AUTH_ISSUER_TYPE',
  audience: 'AUTH_AUDIENCE',
  tokenUse: 'AUTH_TOKEN_USE',
  maxTokenLifetime: 'AUTH_MAX_TOKEN_LIFETIME',
  jwksUri: 'AUTH_JWKS_URI',
  jwksTimeoutMs: 'AUTH_JWKS_TIMEOUT_MS',
  requiredScope: 'AUTH_REQUIRED_SCOPE',
  groupsClaim: 'AUTH_GROUPS_CLAIM',
  tokenHeader: 'AUTH_TOKEN_HEADER',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  publicHostHeader: 'PUBLIC_HOST_HEADER',
  requestLog: 'REQUEST_LOG',
  service: 'POWERTOOLS_SERVICE_NAME',
  namespace: 'POWERTOOLS_METRICS_NAMESPACE',
  metricsDisabled: 'POWERTOOLS_METRICS_DISABLED',
  dev: 'POWERTOOLS_DEV',
  traceEnabled: 'POWERTOOLS_TRACE_ENABLED',
  // Set by Lambda (and by SAM): written here only where the bench or the local server plays Lambda.
  version: 'AWS_LAMBDA_FUNCTION_VERSION',
  initializationType: 'AWS_LAMBDA_INITIALIZATION_TYPE',
  samLocal: 'AWS_SAM_LOCAL',
  // Read as the SDK would read them, then given to the client (config.ts), as AWS_REGION is: the SDK
  // reads no setting itself.
  useFipsEndpoint: 'AWS_USE_FIPS_ENDPOINT',
  useDualstackEndpoint: 'AWS_USE_DUALSTACK_ENDPOINT',
  // The group cache (group-cache.ts).
  groupCacheTtlSeconds: 'GROUP_CACHE_TTL_SECONDS',
  groupCacheMaxBytes: 'GROUP_CACHE_MAX_BYTES',
} as const;

/** Which requests write a record: only those refused or failed (4xx, 5xx), or every one. */
export const REQUEST_LOG_MODES = ['failures', 'all'] as const;
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number];
/** How tokens are checked: as a Cognito user pool's (`client_id`, `token_use`), or as OIDC's. */
export type IssuerType = 'cognito' | 'oidc';

/** Which tokens are accepted: `access` or `id` (the `token_use` claim must say so), `not-id` (anything that does not mark itself as an ID token), or `any`. */
export type TokenUse = 'access' | 'id' | 'not-id' | 'any';

/**
 * The function's settings: one record, which readConfig (config.ts) reads from the environment and
 * functionEnvironment (below) writes, so that writer and reader are each other's inverse. What each
 * setting means, its default and its bounds: docs/configuration.md, by variable.
 */
export interface Config {
  tableName: string;
  /** Only set for local emulators (dynalite, DynamoDB Local, moto); unset in AWS. */
  dynamodbEndpoint: string | undefined;
  dynamodbDeadlineMs: number;
  /** Where the AWS SDK's clients go: the runtime's to say (Lambda sets AWS_REGION), never a writer's. */
  aws: AwsConfig;
  maxPageSize: number;
  publicBaseUrl: string | undefined;
  /**
   * Whether API Gateway filled the event's requestContext, so its execute-api host can be trusted
   * for next links. Not under `sam local` (AWS_SAM_LOCAL), which copies the client's Host there.
   */
  requestContextFromApiGateway: boolean;
  /**
   * A request header naming the host clients called, set by whatever fronts the function and never
   * passed on from a caller (a CDN's viewer function, say): next links go there when PUBLIC_BASE_URL
   * is unset. Unset: no header is trusted for it.
   */
  publicHostHeader: string | undefined;
  auth: AuthConfig;
  telemetry: TelemetryConfig;
  groupCache: GroupCacheConfig;
}

export interface AuthConfig {
  issuer: string;
  /** OIDC audience, or the app client id(s) for a Cognito user pool. */
  audience: string[];
  issuerType: IssuerType;
  tokenUse: TokenUse;
  /** The longest lifetime (`exp` − `iat`, in seconds) a token may have. */
  maxTokenLifetime: number;
  jwksUri: string;
  jwksTimeoutMs: number;
  /** Undefined when no scope is required. */
  requiredScope: string[] | undefined;
  /** Undefined: no sharing. */
  groupsClaim: string | undefined;
  /**
   * The request header that carries the bearer token: `authorization`, unless a front puts the
   * caller's token elsewhere because Authorization carries its own signature (a CDN signing its
   * requests to its origin).
   */
  tokenHeader: string;
}

/** The Region (unset: refused at the first call, as the SDK refuses it) and DynamoDB's endpoint variants. */
export interface AwsConfig {
  region: string | undefined;
  useFipsEndpoint: boolean;
  useDualstackEndpoint: boolean;
}

/** What the function records about requests (see observability.ts). */
export interface TelemetryConfig {
  requestLog: RequestLogMode;
  service: string;
  namespace: string;
  /** EMF metrics in the records (POWERTOOLS_METRICS_DISABLED's inverse). */
  metrics: boolean;
  /** Indented records (POWERTOOLS_DEV). */
  pretty: boolean;
  /**
   * Read: whether Powertools traces here (its rule, config.ts's tracingEnabled). Written: whether it
   * may (POWERTOOLS_TRACE_ENABLED); it still traces only on Lambda.
   */
  tracing: boolean;
  /** Lambda's AWS_LAMBDA_FUNCTION_VERSION. */
  version: string;
  /** How Lambda started this environment: `provisioned-concurrency` is no cold start for a caller. */
  initializationType: string | undefined;
}

export interface GroupCacheConfig {
  ttlSeconds: number;
  maxBytes: number;
}

/**
 * What the stack, the local server, sam local and the bench tell the function: any part of Config.
 * What is left out takes the function's default (config.ts), so `groupsClaim: false` is how a
 * writer turns groups off (undefined would leave Cognito's default on); requestContextFromApiGateway
 * is the runtime's to say (AWS_SAM_LOCAL), never a writer's.
 */
export type FunctionSettings = Partial<
  Omit<Config, 'auth' | 'telemetry' | 'groupCache' | 'requestContextFromApiGateway' | 'aws'>
> & {
  auth?: Partial<Omit<AuthConfig, 'groupsClaim'>> & { groupsClaim?: string | false };
  telemetry?: Partial<TelemetryConfig>;
  groupCache?: Partial<GroupCacheConfig>;
};

/** The variables for `settings`, only those it sets, each as readConfig reads it back. */
export function functionEnvironment(settings: FunctionSettings): Record<string, string> {
  const { auth = {}, telemetry = {}, groupCache = {}, ...sameNamed } = settings;
  const { audience, requiredScope, groupsClaim, ...sameNamedAuth } = auth;
  const { metrics, pretty, tracing, ...sameNamedTelemetry } = telemetry;
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : String(value));
  const values: Partial<Record<keyof typeof ENV, string | number | undefined>> = {
    ...sameNamed,
    ...sameNamedAuth,
    ...sameNamedTelemetry,
    audience: audience?.join(','),
    requiredScope: requiredScope?.join(' '),
    groupsClaim: groupsClaim === false ? 'none' : groupsClaim,
    metricsDisabled: flag(metrics === undefined ? undefined : !metrics),
    dev: flag(pretty),
    traceEnabled: flag(tracing),
    groupCacheTtlSeconds: groupCache.ttlSeconds,
    groupCacheMaxBytes: groupCache.maxBytes,
  };
  // In ENV's order: the template's variables, and so the function version's hash, keep theirs.
  return Object.fromEntries(
    (Object.keys(ENV) as (keyof typeof ENV)[]).flatMap((setting) => {
      const value = values[setting];
      return value === undefined ? [] : [[ENV[setting], String(value)]];
    }),
  );
}

/**
 * The variables declared empty: `sam local` only overrides variables a template declares, and the
 * function reads an empty one as unset.
 */
export const declaredUnset = (...settings: (keyof typeof ENV)[]): Record<string, string> =>
  Object.fromEntries(settings.map((setting) => [ENV[setting], '']));

// What the values may be, where the stack checks them at synth too (infra/settings.ts).

/**
 * The deployed function's DynamoDB deadline: three attempts and their backoff against a service whose
 * reads take milliseconds, well inside the function timeout (15 s, infra/function-runtime.ts) with the
 * JWKS fetch's 3 s before it. A deadline must stay under the function timeout less that fetch, or
 * Lambda ends the request first (a 500 through API Gateway, not a 503).
 */
export const DEFAULT_DYNAMODB_DEADLINE_MS = 3000;
export const MIN_DYNAMODB_DEADLINE_MS = 100;
/** Each of the JWKS fetch's two attempts: an issuer's key set is a few KB from a CDN. */
export const DEFAULT_JWKS_TIMEOUT_MS = 1500;
export const MAX_JWKS_TIMEOUT_MS = 30_000;
/** A minute: past API Gateway's longest integration timeout (30 s), so no front waits longer. */
export const MAX_DYNAMODB_DEADLINE_MS = 60_000;

/**
 * A group's plants may look this old to its members (a user's own plants are never cached). Five
 * seconds already caps what one container reads of a group's partition at one Query per page
 * position every 5 s, so 1,000 containers stay near 3% of the partition's 3,000 read units a second
 * (lab/docs/scale.md); longer buys little and shows changes later. 0 turns the cache off.
 */
export const DEFAULT_GROUP_CACHE_TTL_SECONDS = 5;
export const MAX_GROUP_CACHE_TTL_SECONDS = 3600;
/** 16 MiB of a 1,024 MB function: about 300 full pages of 1,000 plants. */
export const DEFAULT_GROUP_CACHE_MAX_BYTES = 16 * 2 ** 20;
export const MAX_GROUP_CACHE_MAX_BYTES = 512 * 2 ** 20;

/**
 * A whole number written in base 10 (no sign, exponent, decimals or spaces) from `min` to `max`, or
 * undefined: the one integer rule of the function's variables and the stack's context values.
 */
export function wholeNumberIn(raw: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

/**
 * `true` or `false` exactly, else undefined: the AWS SDK's rule for its own boolean variables
 * (@smithy/core's booleanSelector), so no spaces, newlines or other spellings. The one boolean rule
 * of the function's variables and the stack's context values; each reader says what unset means.
 */
export function exactBoolean(raw: string): boolean | undefined {
  return raw === 'true' ? true : raw === 'false' ? false : undefined;
}

/** The trimmed, non-empty items of a comma-separated (or `separator`-separated) value. */
export function list(value: string | undefined, separator: RegExp = /,/): string[] {
  return (value ?? '')
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The range as a refusal says it: "an integer from 1 to 10000", "a positive integer". */
export function integerRange(min: number, max: number): string {
  if (max !== Number.POSITIVE_INFINITY) return `an integer from ${min} to ${max}`;
  return min === 1 ? 'a positive integer' : `an integer of at least ${min}`;
}

// Bounded so a next link (this plus a ~2 KB cursor) stays well inside the response's header margin.
export const MAX_BASE_URL_LENGTH = 1024;

/**
 * The base of next links as a Link header must carry it, or undefined if `raw` can't be one: origin
 * and path only (host lower-cased, default port dropped, `<`, `>`, spaces and quotes
 * percent-encoded, so no value breaks out of `<…>`), no trailing slash, at most MAX_BASE_URL_LENGTH
 * once encoded. Any `?` or `#`, even empty, or credentials refuse it: an empty query would turn
 * every link into a request for the base itself. The stack checks `-c publicBaseUrl` with it too.
 */
export function publicBase(raw: string, url: URL): string | undefined {
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (/[?#]/.test(raw) || url.username || url.password || base.length > MAX_BASE_URL_LENGTH) return undefined;
  return base;
}
