// Generated passwords of users the CLIs create: kept under .local/ (owner-only), never printed.

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `.local/cognito/<pool id>/<username>`: a redeployed pool (a new id) starts afresh. */
export const passwordFileOf = (localDir: string, userPoolId: string, username: string) =>
  join(localDir, 'cognito', userPoolId, encodeURIComponent(username));

/** 192 random bits, then one character of each class a 12+ character Cognito password policy requires. */
export const generatePassword = () => `${randomBytes(24).toString('base64url')}aA7!`;

export function readPassword(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Written before Cognito is told, so a failure in between never leaves a password nobody has. */
export function keepPassword(file: string, password: string): void {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
}
