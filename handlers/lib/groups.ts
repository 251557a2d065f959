// The caller's groups, as the verified token names them: whose shared plants the caller may read.

import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { TooManyGroupsError, UnauthorizedError } from './errors.ts';
import { groupPartition, maxNameBytes } from './partitions.ts';

/**
 * Groups one request reads: 100, the number of groups Cognito's quotas let one user belong to, so
 * a user pool's tokens stay under it. Other issuers can exceed it, and then the request is refused
 * (403) rather than cut: a silent cut would change which plants a caller sees from one token to
 * the next. Each group costs at least one Query when a walk reaches it (see plants.ts).
 */
export const MAX_GROUPS = 100;

/** DynamoDB's partition key limit (2,048 bytes) less the `group#` prefix. */
export const MAX_GROUP_NAME_BYTES = maxNameBytes(groupPartition);

const CONTROL = /\p{Cc}/u;

/**
 * The distinct group names of the token's `claim`, sorted by UTF-16 code unit (the listing order).
 * The claim may be an array of strings (Cognito, Okta, Keycloak, Entra ID) or, from some issuers
 * with a single group, a string. Absent: no groups. Any other value, or a name that is empty,
 * holds a control character, is not well-formed Unicode (two such names would map to one
 * partition key once encoded as UTF-8) or is too long for a key, makes the whole token refused:
 * reading some of its groups and not others would be a silent cut too.
 */
export function groupsOf(payload: JwtPayload, claim: string | undefined): string[] {
  if (claim === undefined || payload[claim] === undefined) return [];
  const value: unknown = payload[claim];
  const names: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [value];
  if (!names.every(isGroupName)) {
    throw new UnauthorizedError(
      'The access token names its groups in a form this API does not accept',
      'invalid_groups',
    );
  }
  const groups = [...new Set(names)].sort();
  if (groups.length > MAX_GROUPS) throw new TooManyGroupsError(MAX_GROUPS);
  return groups;
}

function isGroupName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name !== '' &&
    name.isWellFormed() &&
    !CONTROL.test(name) &&
    Buffer.byteLength(name) <= MAX_GROUP_NAME_BYTES
  );
}
