// Deploy-time settings of the stack, read once from CDK context (`-c key=value` or cdk.json) and
// checked, naming the bad key, before any resource is defined.

export interface StackSettings {
  /** A disposable stack: the table and user pool are destroyed with it, no deletion protection. */
  dev: boolean;
  /** Steady-state requests per second and burst for the whole stage. */
  throttle: { rateLimit: number; burstLimit: number };
  /** Browser origins allowed by CORS; empty means CORS is off. */
  corsOrigins: string[];
  /** An external OIDC issuer; undefined means the stack creates a Cognito user pool. */
  externalAuth: ExternalAuth | undefined;
  /** Scopes the token must carry (AUTH_REQUIRED_SCOPE), with either identity source. */
  requiredScope: string | undefined;
  /** Declares the local-only variables so `sam local --env-vars` can set them. */
  samLocal: boolean;
  /** Powertools log level of the function (POWERTOOLS_LOG_LEVEL). */
  logLevel: string;
  /** Share of invocations logged at DEBUG (POWERTOOLS_LOGGER_SAMPLE_RATE), 0 to 1. */
  debugSampleRate: number;
  /** E-mail address subscribed to the alarms; none means no SNS topic. */
  alarmEmail: string | undefined;
}

export interface ExternalAuth {
  issuer: string;
  audience: string;
  jwksUri: string | undefined;
  tokenUse: 'access' | 'id' | 'any' | undefined;
}

/** Reads a context value: `node.tryGetContext` in the stack, a plain map in tests. */
export type ContextReader = (key: string) => unknown;

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const DEFAULT_RATE_LIMIT = 50;
const DEFAULT_BURST_LIMIT = 100;

export function readSettings(context: ContextReader): StackSettings {
  return {
    dev: flag(context, 'dev'),
    throttle: {
      rateLimit: positiveInteger(context, 'throttleRate', DEFAULT_RATE_LIMIT),
      burstLimit: positiveInteger(context, 'throttleBurst', DEFAULT_BURST_LIMIT),
    },
    corsOrigins: list(text(context, 'corsOrigins')),
    externalAuth: readExternalAuth(context),
    requiredScope: text(context, 'authRequiredScope'),
    samLocal: flag(context, 'samLocal'),
    logLevel: oneOf(context, 'logLevel', LOG_LEVELS, 'INFO'),
    debugSampleRate: fraction(context, 'debugSampleRate', 0),
    alarmEmail: text(context, 'alarmEmail'),
  };
}

const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];

function oneOf(context: ContextReader, key: string, allowed: string[], fallback: string): string {
  const value = text(context, key)?.toUpperCase() ?? fallback;
  if (!allowed.includes(value)) throw new SettingsError(`${key} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value;
}

function fraction(context: ContextReader, key: string, fallback: number): number {
  const value = text(context, key);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || number > 1)
    throw new SettingsError(`${key} must be a number from 0 to 1, got "${value}"`);
  return number;
}

function readExternalAuth(context: ContextReader): ExternalAuth | undefined {
  const issuer = text(context, 'authIssuer');
  const audience = text(context, 'authAudience');
  const jwksUri = text(context, 'authJwksUri');
  const tokenUse = text(context, 'authTokenUse');
  if (issuer === undefined && audience === undefined) {
    if (jwksUri !== undefined || tokenUse !== undefined) {
      throw new SettingsError('authJwksUri and authTokenUse need authIssuer and authAudience');
    }
    return undefined;
  }
  if (issuer === undefined || audience === undefined) {
    throw new SettingsError('authIssuer and authAudience must be given together');
  }
  httpsUrl('authIssuer', issuer);
  if (jwksUri !== undefined) httpsUrl('authJwksUri', jwksUri);
  if (tokenUse !== undefined && tokenUse !== 'access' && tokenUse !== 'id' && tokenUse !== 'any') {
    throw new SettingsError(`authTokenUse must be "access", "id" or "any", got "${tokenUse}"`);
  }
  return { issuer, audience, jwksUri, tokenUse };
}

// Context from the command line is always a string; from cdk.json or tests it may be typed.
function text(context: ContextReader, key: string): string | undefined {
  const value = context(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new SettingsError(`${key} must be a string, got ${JSON.stringify(value)}`);
  }
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

function flag(context: ContextReader, key: string): boolean {
  const value = text(context, key);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new SettingsError(`${key} must be true or false, got "${value}"`);
}

function positiveInteger(context: ContextReader, key: string, fallback: number): number {
  const value = text(context, key);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new SettingsError(`${key} must be a positive integer, got "${value}"`);
  }
  return Number(value);
}

// The handler fetches signing keys over https only, so an http issuer could never work.
function httpsUrl(key: string, value: string): void {
  if (!URL.canParse(value) || new URL(value).protocol !== 'https:') {
    throw new SettingsError(`${key} must be an https URL, got "${value}"`);
  }
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
