// Typed errors of the service, and their one mapping to an HTTP response with the Error body.

import type { Outcome } from './telemetry-names.ts';

/**
 * An error whose message is safe to show the caller, with the HTTP status it maps to and the
 * outcome its request is counted under (the `outcome` dimension of `Requests`).
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly outcome: Outcome;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, outcome: Outcome, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.status = status;
    this.outcome = outcome;
    this.headers = headers;
  }
}

export class BadRequestError extends HttpError {
  override name = 'BadRequestError';
  constructor(message: string) {
    super(400, 'bad_request', message);
  }
}

/**
 * A method and path the API has no operation for, where the caller chose them (a catch-all route that
 * forwards every path): refused as the caller's mistake, as API Gateway refuses one.
 */
export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
  constructor() {
    super(404, 'bad_request', 'Not Found');
  }
}

/** Why a request was not authenticated: a metric dimension, never shown to the caller. */
export const AUTH_FAILURES = [
  'missing_token',
  'malformed',
  'expired',
  'not_yet_valid',
  'missing_exp',
  'issued_in_future',
  'lifetime_too_long',
  'unsupported_crit',
  'invalid',
  'bad_signature',
  'wrong_issuer',
  'wrong_audience',
  'unknown_key',
  // A key the set publishes but may not verify with: too weak, or for another use (jwks-cache.ts).
  'weak_key',
  'no_subject',
  'wrong_token_use',
  'invalid_groups',
  'insufficient_scope',
  'too_many_groups',
] as const;
export type AuthFailure = (typeof AUTH_FAILURES)[number];

/**
 * 401. RFC 6750 §3.1: a request with no bearer token gets a bare challenge; a request whose
 * token was refused gets `error="invalid_token"`.
 */
export class UnauthorizedError extends HttpError {
  override name = 'UnauthorizedError';
  readonly reason: AuthFailure;
  constructor(message: string, reason: AuthFailure) {
    super(401, 'unauthorized', message, {
      'WWW-Authenticate':
        reason === 'missing_token' ? 'Bearer' : `Bearer error="invalid_token", error_description="${message}"`,
    });
    this.reason = reason;
  }
}

/** 403: the token is valid, but this deployment will not serve it. */
export class ForbiddenError extends HttpError {
  override name = 'ForbiddenError';
  readonly reason: AuthFailure;
  constructor(message: string, reason: AuthFailure, headers: Readonly<Record<string, string>> = {}) {
    super(403, 'forbidden', message, headers);
    this.reason = reason;
  }
}

/** 403 (RFC 6750 §3.1): the token lacks a scope this deployment requires. */
export class InsufficientScopeError extends ForbiddenError {
  override name = 'InsufficientScopeError';
  constructor(requiredScope: readonly string[]) {
    super('The access token does not carry the required scope', 'insufficient_scope', {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${requiredScope.join(' ')}"`,
    });
  }
}

/** 403: the token names more groups than one request reads; refused rather than cut silently. */
export class TooManyGroupsError extends ForbiddenError {
  override name = 'TooManyGroupsError';
  constructor(bound: number) {
    super(`The access token names more than ${bound} groups, the most this API reads per request`, 'too_many_groups');
  }
}

/** 503: a dependency (DynamoDB, the issuer's JWKS) is unavailable; the caller may retry. */
export class ServiceUnavailableError extends HttpError {
  override name = 'ServiceUnavailableError';
  constructor(cause: unknown) {
    super(503, 'unavailable', 'Service temporarily unavailable, retry later', { 'Retry-After': '1' });
    this.cause = cause;
  }
}

/** The outcome a request that ended in `error` is counted under: `error` for anything unexpected. */
export const outcomeOfError = (error: unknown): Outcome => (error instanceof HttpError ? error.outcome : 'error');

const SERVER_ERROR_MESSAGE = 'Internal server error';
/** The body of a 500 whose cause is not the caller's to see. */
export const SERVER_ERROR_BODY = JSON.stringify({ error: 500, message: SERVER_ERROR_MESSAGE });

/** Every error, expected or not, leaves as `{error, message}`; 5xx messages stay generic. */
export function toErrorResponse(error: unknown): { statusCode: number; headers: Record<string, string>; body: string } {
  const known = error instanceof HttpError;
  const status = known ? error.status : 500;
  const message = known ? error.message : SERVER_ERROR_MESSAGE;
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json', ...(known ? error.headers : {}) },
    body: JSON.stringify({ error: status, message }),
  };
}
