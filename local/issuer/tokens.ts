// Access tokens from the local issuer, shaped as a Cognito user pool's or a generic OIDC provider's.

import { randomUUID } from 'node:crypto';
import { COGNITO_GROUPS_CLAIM } from '../../handlers/lib/config.ts';
import type { IssuerType } from '../../handlers/lib/environment.ts';
import { SERVICE_NAME } from '../../handlers/lib/names.ts';
import { OptionValueError } from '../server/options.ts';
import { type SigningKey, signToken } from './issuer.ts';

/** The local app client id (Cognito shape) or audience (OIDC shape). */
export const LOCAL_AUDIENCE = `${SERVICE_NAME}-local`;
export const DEFAULT_TOKEN_TTL = '1h';
/** The scope Cognito puts in access tokens issued by initiate-auth (no OAuth scopes). */
export const COGNITO_SIGNIN_SCOPE = 'aws.cognito.signin.user.admin';

/** The local issuer is the local server's origin, whose /.well-known/jwks.json lists its key. */
export const localIssuerUrl = (port: number) => `http://127.0.0.1:${port}`;

export interface TokenRequest {
  issuer: string;
  subject: string;
  /** Lifetime in seconds. */
  ttl: number;
  /** Space-separated OAuth scopes; Cognito shape: defaults to COGNITO_SIGNIN_SCOPE; OIDC: none. */
  scope?: string | undefined;
  /** OIDC `aud`, or the Cognito app client id in `client_id`. */
  audience?: string;
  /** Default `oidc`, the shape every caller got before the Cognito shape existed. */
  shape?: IssuerType;
  /** Groups the user belongs to, put in `groupsClaim` (default `cognito:groups`) when not empty. */
  groups?: readonly string[] | undefined;
  groupsClaim?: string | undefined;
}

export function mintToken(key: SigningKey, request: TokenRequest): string {
  const { issuer, subject, ttl, scope, audience = LOCAL_AUDIENCE, shape = 'oidc' } = request;
  const now = Math.floor(Date.now() / 1000);
  const groups =
    request.groups && request.groups.length > 0
      ? { [request.groupsClaim ?? COGNITO_GROUPS_CLAIM]: request.groups }
      : {};
  if (shape === 'cognito') {
    // The claims of an access token from a user pool's initiate-auth, in Cognito's order.
    return signToken(key, {
      sub: subject,
      ...groups,
      iss: issuer,
      client_id: audience,
      origin_jti: randomUUID(),
      event_id: randomUUID(),
      token_use: 'access',
      scope: scope ?? COGNITO_SIGNIN_SCOPE,
      auth_time: now,
      exp: now + ttl,
      iat: now,
      jti: randomUUID(),
      username: subject,
    });
  }
  return signToken(key, {
    iss: issuer,
    sub: subject,
    aud: audience,
    token_use: 'access',
    ...(scope && { scope }),
    ...groups,
    iat: now,
    exp: now + ttl,
    jti: randomUUID(),
  });
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90`, `90s`, `15m`, `12h` or `7d` as seconds; anything else throws. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,9})([smhd]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] ?? 1) : 0;
  if (!match || seconds < 1) throw new OptionValueError(`Invalid duration "${text}": use e.g. 90s, 15m, 12h or 7d`);
  return seconds;
}
