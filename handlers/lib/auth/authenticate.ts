// Bearer-token authentication: who is calling, as proven by a token the verifier accepted.

import {
  CognitoJwtInvalidClientIdError,
  CognitoJwtInvalidTokenUseError,
  FetchError,
  JwksValidationError,
  JwtBaseError,
  JwtExpiredError,
  JwtInvalidAudienceError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureError,
  JwtNotBeforeError,
  JwtParseError,
  KidNotFoundInJwksError,
  NotSupportedError,
  ParameterValidationError,
  WaitPeriodNotYetEndedJwkError,
} from 'aws-jwt-verify/error';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import type { AuthConfig } from '../environment.ts';
import { type AuthFailure, InsufficientScopeError, ServiceUnavailableError, UnauthorizedError } from '../errors.ts';
import { groupsOf } from '../groups.ts';
import { maxNameBytes, userPartition } from '../partitions.ts';
import { WeakKeyError } from './jwks-cache.ts';

export type TokenVerifier = (token: string) => Promise<JwtPayload>;

/** Who is calling: the verified token's `sub`, and the groups it names (sorted, distinct). */
export interface Caller {
  sub: string;
  groups: string[];
}

/** Verifies the request's bearer token and returns the caller. */
export async function authenticate(
  authorization: string | undefined,
  verify: TokenVerifier,
  { requiredScope, groupsClaim }: Pick<AuthConfig, 'requiredScope' | 'groupsClaim'>,
): Promise<Caller> {
  const token = bearerToken(authorization);
  let payload: JwtPayload;
  try {
    payload = await verify(token);
  } catch (error) {
    throw toAuthError(error);
  }
  if (!isSubject(payload.sub)) throw new UnauthorizedError('The access token has no usable subject', 'no_subject');
  if (requiredScope && !hasScope(payload, requiredScope)) throw new InsufficientScopeError(requiredScope);
  return { sub: payload.sub, groups: groupsOf(payload, groupsClaim) };
}

const MAX_SUB_BYTES = maxNameBytes(userPartition);

/**
 * A sub that names one partition key: non-empty, well-formed Unicode (a lone surrogate encodes as
 * U+FFFD, so two subs would share a partition) and within DynamoDB's 2,048-byte key limit.
 */
function isSubject(sub: unknown): sub is string {
  return typeof sub === 'string' && sub !== '' && sub.isWellFormed() && Buffer.byteLength(sub) <= MAX_SUB_BYTES;
}

/** At least one of the required scopes among the token's space-separated `scope` (RFC 6749 §3.3). */
export function hasScope(payload: JwtPayload, requiredScope: readonly string[]): boolean {
  const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  return requiredScope.some((scope) => granted.includes(scope));
}

/**
 * The longest run of spaces taken between `Bearer` and the token. RFC 6750 §2.1 allows a run; a long
 * one serves no client and would push the token past the first kilobytes of headers that proxies and
 * rate limiters inspect.
 */
export const MAX_SPACES_AFTER_BEARER = 8;

/**
 * RFC 6750 §2.1 credentials: `Bearer`, matched case-insensitively (RFC 7235 §2.1), a short run of
 * spaces, one b64token, and nothing around them: a space before or after would be another spelling
 * of the same token to whatever keys on the header's text (a rate limit per token), so only the one
 * spelling is taken. Scanned by hand rather than with one regex: a header is attacker-sized, and
 * patterns with adjacent space runs backtrack quadratically on long runs of spaces.
 */
export function bearerToken(authorization: string | undefined): string {
  const header = authorization ?? '';
  const afterScheme = header.indexOf(' ');
  let start = afterScheme;
  while (start >= 0 && header[start] === ' ') start += 1;
  const token = start < 0 ? '' : header.slice(start);
  if (afterScheme < 0 || header.slice(0, afterScheme).toLowerCase() !== 'bearer' || token === '') {
    throw new UnauthorizedError('A bearer token is required', 'missing_token');
  }
  // One token of the b64token alphabet: two credentials (repeated headers are joined by ", "),
  // trailing spaces, control characters and injected lines are refused before any parsing.
  if (start - afterScheme > MAX_SPACES_AFTER_BEARER || !B64TOKEN.test(token)) {
    throw new UnauthorizedError('The access token is invalid', 'malformed');
  }
  return token;
}

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

const INVALID_REASONS: [new (...args: never[]) => JwtBaseError, AuthFailure][] = [
  [JwtInvalidSignatureError, 'bad_signature'],
  [JwtInvalidIssuerError, 'wrong_issuer'],
  [JwtInvalidAudienceError, 'wrong_audience'],
  [KidNotFoundInJwksError, 'unknown_key'],
  // A kid the key set lacks, while refetching it waits out its penalty.
  [WaitPeriodNotYetEndedJwkError, 'unknown_key'],
  [JwtParseError, 'malformed'],
];

function toAuthError(error: unknown): Error {
  // FetchError extends JwtBaseError: check outages first so they never look like bad tokens.
  if (error instanceof FetchError || error instanceof JwksValidationError) {
    return new ServiceUnavailableError(error);
  }
  if (error instanceof UnauthorizedError) return error;
  if (error instanceof CognitoJwtInvalidTokenUseError) {
    return new UnauthorizedError('The token is not an access token for this API', 'wrong_token_use');
  }
  if (error instanceof CognitoJwtInvalidClientIdError) {
    return new UnauthorizedError('The token is not an access token for this API', 'wrong_audience');
  }
  if (error instanceof JwtExpiredError) return new UnauthorizedError('The access token has expired', 'expired');
  if (error instanceof WeakKeyError) return new UnauthorizedError('The access token is invalid', 'weak_key');
  if (error instanceof JwtNotBeforeError)
    return new UnauthorizedError('The access token is not valid yet', 'not_yet_valid');
  // The verifier's own misconfiguration is ours, not the caller's.
  if (error instanceof ParameterValidationError || error instanceof NotSupportedError) return error;
  // The caller hears only "invalid"; the record's reason tells the operator (and npm start) which check failed.
  const reason = INVALID_REASONS.find(([type]) => error instanceof type)?.[1] ?? 'invalid';
  if (error instanceof JwtBaseError) return new UnauthorizedError('The access token is invalid', reason);
  // Anything else (a TypeError, a key URL the fetcher cannot use) is a fault of this service: it
  // leaves as 500 and is logged at ERROR, where an alarm sees it, never as a 401 that hides it.
  return error instanceof Error ? error : new Error(String(error));
}
