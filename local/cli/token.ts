// `npm run token -- <user>`: an access token from the local issuer, or (--deployed) the deployed stack's user pool.

import { relative } from 'node:path';
import { deployedSession } from '../../deployed/session.ts';
import { DEFAULT_TOKEN_TTL } from '../issuer/tokens.ts';
import { DEFAULT_PORT, localDirOf } from '../server/options.ts';
import { DEMO_USERS } from '../store/demo.ts';
import { escapeControls } from '../terminal-text.ts';
import { UsageError } from './args.ts';
import { mintLocalToken, parseGroups } from './local-token.ts';
import { runCli } from './shell.ts';

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
  --outputs-file F    the outputs file (default: cdk.json's outputsFile, .local/cdk-outputs.json)
  --env NAME          the environment's stack (-c env=NAME at deploy), when the file holds several`;

const OPTIONS = {
  ttl: { type: 'string' },
  scope: { type: 'string' },
  groups: { type: 'string' },
  'no-groups': { type: 'boolean' },
  port: { type: 'string' },
  deployed: { type: 'boolean' },
  'reset-password': { type: 'boolean' },
  'outputs-file': { type: 'string' },
  env: { type: 'string' },
} as const;
/** What only --deployed reads. */
const DEPLOYED_ONLY = ['reset-password', 'outputs-file', 'env'] as const;
/** Flags of local tokens, refused with --deployed: the pool decides lifetime, scope and (kept) groups. */
const LOCAL_ONLY = {
  port: 'the deployed API is the one in the outputs file',
  ttl: 'the app client sets the lifetime (-c accessTokenMinutes at deploy)',
  scope: 'Cognito gives password sign-ins the scope aws.cognito.signin.user.admin',
  'no-groups': 'groups live in the pool: aws cognito-idp admin-remove-user-from-group takes a user out',
} as const;

await runCli({ usage: USAGE, options: OPTIONS, positionals: true }, async ({ values, positionals }) => {
  const [subject, ...extra] = positionals;
  if (!subject || extra.length > 0) throw new UsageError('Give exactly one user, e.g. npm run token -- alice');
  if (values.deployed) {
    for (const [flag, why] of Object.entries(LOCAL_ONLY)) {
      if (values[flag as keyof typeof LOCAL_ONLY] !== undefined)
        throw new UsageError(`--${flag} is for local tokens: ${why}`);
    }
    const session = await deployedSession({
      user: subject,
      groups: values.groups === undefined ? [] : parseGroups(values.groups),
      resetPassword: values['reset-password'] === true,
      outputsFile: values['outputs-file'],
      environment: values.env,
      localDir: localDirOf(process.env),
    });
    const { outputs } = session;
    const facts = [
      `sub ${session.sub}`,
      session.groups.length > 0 && `cognito:groups ${session.groups.join(',')}`,
      session.created && `new user, password kept in ${relative(process.cwd(), session.passwordFile)}`,
    ];
    // The user name is the command line's.
    console.error(
      escapeControls(
        `Access token for ${session.username} (${facts.filter(Boolean).join(', ')}) from user pool ${outputs.userPoolId} ` +
          `of stack ${outputs.stackName}, expires ${session.expiresAt.toISOString()}:`,
      ),
    );
    if (outputs.machineClientId) {
      console.error(
        'This stack requires a scope: its API answers users\' tokens 403 insufficient_scope (docs/deploy.md, "Machine clients").',
      );
    }
    console.error(`Call: curl -i -H "Authorization: Bearer $TOKEN" ${outputs.baseUrl}plants`);
    console.log(session.token);
  } else {
    const stray = DEPLOYED_ONLY.find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --deployed`);
    const { token, description } = mintLocalToken(subject, values);
    // It names the user as given on the command line.
    console.error(escapeControls(description));
    console.log(token);
  }
});
