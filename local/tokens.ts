// Access tokens from the local issuer: the claims a Cognito-style access token carries.

import { randomUUID } from 'node:crypto';
import { type SigningKey, signToken } from './issuer.ts';

export const LOCAL_AUDIENCE = 'plant-store-local';
export const DEFAULT_TOKEN_TTL = '1h';

/** The local issuer is the local server's origin, whose /.well-known/jwks.json lists its key. */
export const localIssuerUrl = (port: number) => `http://localhost:${port}`;

export interface TokenRequest {
  issuer: string;
  subject: string;
  /** Lifetime in seconds. */
  ttl: number;
  /** Space-separated OAuth scopes; no `scope` claim when absent. */
  scope?: string | undefined;
  audience?: string;
}

export function mintToken(
  key: SigningKey,
  { issuer, subject, ttl, scope, audience = LOCAL_AUDIENCE }: TokenRequest,
): string {
  const now = Math.floor(Date.now() / 1000);
  return signToken(key, {
    iss: issuer,
    sub: subject,
    aud: audience,
    token_use: 'access',
    ...(scope && { scope }),
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
  if (!match || seconds < 1) throw new Error(`Invalid duration "${text}": use e.g. 90s, 15m, 12h or 7d`);
  return seconds;
}
