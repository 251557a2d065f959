// `npm run token -- <user> [--groups a,b | --no-groups] [--port N] [--ttl 1h] [--scope "a b"]`: an access token
// from the local issuer for a local server, printed alone on stdout (`$(npm run -s token -- alice)`);
// with --deployed, from the deployed stack's user pool (deployed-token.ts).

import { groupsClaimOf } from '../issuer/auth-mode.ts';
import { loadSigningKey } from '../issuer/keys.ts';
import { DEFAULT_TOKEN_TTL, LOCAL_AUDIENCE, localIssuerUrl, mintToken, parseDuration } from '../issuer/tokens.ts';
import { DEFAULT_PORT, issuerDirOf, localDirOf, parsePort, tokenShapeOf } from '../server/options.ts';
import { findServer, runningServers, type ServerRecord } from '../server/servers.ts';
import { DEMO_USERS } from '../store/demo.ts';
import { exitCodeOf, parseCommandLine, UsageError } from './args.ts';
import { printDeployedToken } from './deployed-token.ts';

const USAGE = `Usage: npm run token -- <user> [--groups a,b | --no-groups] [--port N] [--ttl ${DEFAULT_TOKEN_TTL}] [--scope "s1 s2"]

  <user>         the token's subject (sub): the user whose plants the API returns
  --groups a,b   groups the user belongs to, in the server's groups claim (cognito:groups by default);
                 without it, the demo users' own groups (${DEMO_USERS.map(({ user, groups }) => `${user}: ${groups.join(',')}`).join('; ')})
  --no-groups    a token that names no group
  --port N       the local server to mint for (default: PORT if set, else the running one, else ${DEFAULT_PORT})
  --ttl D        lifetime: 90s, 15m, 12h, 7d (default ${DEFAULT_TOKEN_TTL})
  --scope S      the scope claim (default for Cognito-shaped tokens: aws.cognito.signin.user.admin)

Deployed stack (the outputs \`npx cdk deploy\` writes; your AWS credentials):
  --deployed          a token from the stack's user pool: <user> (alice means alice@example.com) is
                      created if absent, with a generated password kept in .local/cognito/ (never
                      printed), and signed in; --groups adds groups (created if absent)
  --reset-password    give a user created elsewhere a new generated password
  --outputs-file F    the outputs file (default: cdk.json's outputsFile, .local/cdk-outputs.json)`;

const OPTIONS = {
  ttl: { type: 'string' },
  scope: { type: 'string' },
  groups: { type: 'string' },
  'no-groups': { type: 'boolean' },
  port: { type: 'string' },
  deployed: { type: 'boolean' },
  'reset-password': { type: 'boolean' },
  'outputs-file': { type: 'string' },
  help: { type: 'boolean' },
} as const;
type Flags = ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];

try {
  const { values, positionals } = parseCommandLine(OPTIONS);
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const [subject, ...extra] = positionals;
  if (!subject || extra.length > 0) throw new UsageError('Give exactly one user, e.g. npm run token -- alice');
  if (values.deployed) {
    const groups = values.groups === undefined ? undefined : parseGroups(values.groups);
    await printDeployedToken(subject, { ...values, groups });
  } else if (values['reset-password'] || values['outputs-file'] !== undefined) {
    throw new UsageError(`--${values['reset-password'] ? 'reset-password' : 'outputs-file'} goes with --deployed`);
  } else printLocalToken(subject, values);
} catch (error) {
  // 2: the command line was wrong; 1: it was right but no token could be made.
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : (error as Error).message);
  process.exit(exitCodeOf(error));
}

function printLocalToken(subject: string, values: Flags) {
  const localDir = localDirOf(process.env);
  const { port, server, source } = targetOf(localDir, values.port);
  if (server && !server.issuer) {
    throw new Error(`The server on port ${port} verifies tokens from an external issuer: get tokens from it`);
  }
  const shape = server?.issuer?.shape ?? tokenShapeOf(process.env);
  const groupsClaim = server ? server.issuer?.groupsClaim : groupsClaimOf(process.env, shape);
  if (values.groups !== undefined && values['no-groups'])
    throw new UsageError('Give --groups or --no-groups, not both');
  if (values.groups !== undefined && !groupsClaim)
    throw new Error('Groups are off on this server (AUTH_GROUPS_CLAIM=none)');
  const groups = groupsFor(subject, values.groups, values['no-groups'] === true || !groupsClaim);
  const issuer = server?.issuer?.url ?? localIssuerUrl(port);
  const ttl = parseDuration(values.ttl ?? DEFAULT_TOKEN_TTL);
  const audience = server?.issuer?.audience ?? LOCAL_AUDIENCE;
  const token = mintToken(loadSigningKey(issuerDirOf(localDir)), {
    issuer,
    subject,
    ttl,
    scope: values.scope,
    audience,
    shape,
    groups,
    groupsClaim,
  });
  const facts = [
    shape === 'cognito' ? `Cognito-shaped, client_id ${audience}` : `OIDC, aud ${audience}`,
    groups.length > 0 && `${groupsClaim} ${groups.join(',')}`,
    values.scope && `scope "${values.scope}"`,
  ];
  console.error(
    `Access token for ${subject} (${facts.filter(Boolean).join(', ')}) for the server on port ${port} ${source}, ` +
      `issuer ${issuer}, expires ${new Date(Date.now() + ttl * 1000).toISOString()}:`,
  );
  console.log(token);
}

/** --port, else PORT, else the running server, else the default port; with where it came from. */
function targetOf(localDir: string, portFlag: string | undefined) {
  const named = portFlag ?? process.env.PORT;
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

function parseGroups(text: string): string[] {
  const groups = text
    .split(',')
    .map((group) => group.trim())
    .filter(Boolean);
  if (groups.length === 0) throw new UsageError('--groups takes group names separated by commas, e.g. --groups a,b');
  return groups;
}
