// `npm run token -- <user>`: an access token from the local issuer (or, --deployed, the user pool).

import { DEFAULT_TOKEN_TTL } from '../issuer/tokens.ts';
import { DEFAULT_PORT } from '../server/options.ts';
import { DEMO_USERS } from '../store/demo.ts';
import { escapeControls } from '../terminal-text.ts';
import { UsageError } from './args.ts';
import { printDeployedToken } from './deployed-token.ts';
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

await runCli({ usage: USAGE, options: OPTIONS, positionals: true }, async ({ values, positionals }) => {
  const [subject, ...extra] = positionals;
  if (!subject || extra.length > 0) throw new UsageError('Give exactly one user, e.g. npm run token -- alice');
  if (values.deployed) {
    const groups = values.groups === undefined ? undefined : parseGroups(values.groups);
    await printDeployedToken(subject, { ...values, groups });
  } else {
    const stray = DEPLOYED_ONLY.find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --deployed`);
    const { token, description } = mintLocalToken(subject, values);
    // It names the user as given on the command line.
    console.error(escapeControls(description));
    console.log(token);
  }
});
