// A token from the local issuer for a local server, as that server's record describes its issuer.

import { groupsOf } from '../../handlers/lib/groups.ts';
import { groupsClaimOf } from '../issuer/auth-mode.ts';
import { loadSigningKey } from '../issuer/keys.ts';
import { DEFAULT_TOKEN_TTL, LOCAL_AUDIENCE, localIssuerUrl, mintToken, parseDuration } from '../issuer/tokens.ts';
import { DEFAULT_PORT, issuerDirOf, localDirOf, parsePort, tokenShapeOf } from '../server/options.ts';
import { findServer, runningServers, type ServerRecord } from '../server/servers.ts';
import { DEMO_USERS } from '../store/demo.ts';
import { type Flags, UsageError } from './args.ts';

/** The token, and a line saying what it is and for which server (the token CLI prints it on stderr). */
export function mintLocalToken(
  subject: string,
  flags: Flags<'port' | 'groups' | 'ttl' | 'scope', 'no-groups'>,
  env = process.env,
) {
  const localDir = localDirOf(env);
  const { port, server, source } = targetOf(localDir, flags.port, env);
  if (server && !server.issuer) {
    throw new Error(`The server on port ${port} verifies tokens from an external issuer: get tokens from it`);
  }
  const shape = server?.issuer?.shape ?? tokenShapeOf(env);
  const groupsClaim = server ? server.issuer?.groupsClaim : groupsClaimOf(env, shape);
  if (flags.groups !== undefined && flags['no-groups']) throw new UsageError('Give --groups or --no-groups, not both');
  if (flags.groups !== undefined && !groupsClaim)
    throw new Error('Groups are off on this server (AUTH_GROUPS_CLAIM=none)');
  const groups = groupsFor(subject, flags.groups, flags['no-groups'] === true || !groupsClaim);
  const issuer = server?.issuer?.url ?? localIssuerUrl(port);
  const ttl = parseDuration(flags.ttl ?? DEFAULT_TOKEN_TTL);
  const audience = server?.issuer?.audience ?? LOCAL_AUDIENCE;
  const token = mintToken(loadSigningKey(issuerDirOf(localDir)), {
    issuer,
    subject,
    ttl,
    scope: flags.scope,
    audience,
    shape,
    groups,
    groupsClaim,
  });
  const facts = [
    shape === 'cognito' ? `Cognito-shaped, client_id ${audience}` : `OIDC, aud ${audience}`,
    groups.length > 0 && `${groupsClaim} ${groups.join(',')}`,
    flags.scope && `scope "${flags.scope}"`,
  ];
  const description =
    `Access token for ${subject} (${facts.filter(Boolean).join(', ')}) for the server on port ${port} ${source}, ` +
    `issuer ${issuer}, expires ${new Date(Date.now() + ttl * 1000).toISOString()}:`;
  return { token, description };
}

/** --port, else PORT, else the running server, else the default port; with where it came from. */
function targetOf(localDir: string, portFlag: string | undefined, env: NodeJS.ProcessEnv) {
  const named = portFlag ?? env.PORT;
  if (named !== undefined) {
    const port = parsePort(named, portFlag === undefined ? 'PORT' : '--port');
    const server: ServerRecord | undefined = runningServers(localDir).find((record) => record.port === port);
    const from = portFlag === undefined ? 'from PORT' : 'from --port';
    return { port, server, source: server ? `(${from})` : `(${from}; no local server runs there now)` };
  }
  const server = findServer(localDir);
  if (server) return { port: server.port, server, source: '(the running local server)' };
  return { port: DEFAULT_PORT, server, source: '(the default; no local server is running now)' };
}

// The local issuer stands in for the identity provider, which is the source of truth for groups:
// like a user pool, it names a demo user's groups in every token unless told otherwise.
function groupsFor(subject: string, flag: string | undefined, none: boolean): string[] {
  if (none) return [];
  if (flag !== undefined) return parseGroups(flag);
  return [...(DEMO_USERS.find(({ user }) => user === subject)?.groups ?? [])];
}

/** `--groups a,b`, checked as the API checks a token's groups: for local tokens, the list and the pool. */
export function parseGroups(text: string): string[] {
  const names = text
    .split(',')
    .map((group) => group.trim())
    .filter(Boolean);
  try {
    if (names.length === 0) throw new Error();
    groupsOf({ groups: names }, 'groups');
    return names;
  } catch {
    throw new UsageError('--groups takes group names separated by commas, as a token names them: --groups a,b');
  }
}
