// `npm run smoke`: the reference client against the local server, a URL, or the deployed stack.

import { formatSummary, runSmoke, SmokeFailure } from '../../client/smoke.ts';
import { BASE_URL_OUTPUTS } from '../../deployed/outputs.ts';
import { isLoopbackHost } from '../../handlers/lib/loopback.ts';
import { localDirOf, parsePort } from '../server/options.ts';
import { findServer, runningServers, type ServerRecord } from '../server/servers.ts';
import { escapeControls } from '../terminal-text.ts';
import { UsageError } from './args.ts';
import { mintLocalToken } from './local-token.ts';
import { runCli } from './shell.ts';
import { deployedTarget, type TargetOptions } from './smoke-deployed.ts';
import { tokenGiven } from './token-file.ts';

const DEFAULT_USER = 'alice';
const DEFAULT_LIMIT = 2;

const USAGE = `Usage: npm run smoke -- [--url URL] [--token-file FILE] [--user NAME] [--limit N] [--port N]
       npm run smoke -- --deployed [--env NAME] [--user NAME | --password-secret SECRET] [--url URL] ...

  Walks every page by its next links, checks each response against openapi.yaml and the refusals (no
  token, a bad token: 401; a bad limit: 400), and prints a summary.

  --url URL            the API's base URL or its /plants URL (default: the running local server)
  --token-file F       a file holding a token ("-": stdin), kept out of the command line npm and CI print
  --token TOKEN        the token itself, on the command line
  --user NAME          whose token a local server's issuer or the deployed pool gives (default ${DEFAULT_USER})
  --limit N            page size of the walk (default ${DEFAULT_LIMIT}, so that next links are followed)
  --port N             the local server to check (default: the running one)
  --deployed           the deployed stack at ${BASE_URL_OUTPUTS.join(', else ')}, with a token of its
                       user pool for --user, created there if absent (as npm run token -- <user> --deployed)
  --outputs-file F     the outputs file (default: cdk.json's outputsFile, .local/cdk-outputs.json)
  --env NAME           the environment's stack (-c env=NAME), when the outputs file holds several
  --reset-password     give --user a new generated password when this machine lacks it (a CI runner)
  --password-secret S  sign in as this Secrets Manager secret's user, no other call on the pool (docs/pipeline.md)
  --set-password       with --password-secret, an administrator once per pool: create the user, give it the password`;

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
  // No default here: --password-secret refuses a --user given with it.
  user: { type: 'string' },
  limit: { type: 'string', default: String(DEFAULT_LIMIT) },
  port: { type: 'string' },
  deployed: { type: 'boolean' },
  'outputs-file': { type: 'string' },
  env: { type: 'string' },
  'reset-password': { type: 'boolean' },
  'password-secret': { type: 'string' },
  'set-password': { type: 'boolean' },
} as const;

await runCli({ usage: USAGE, options: OPTIONS, positionals: false }, async ({ values }) => {
  const limit = Number(values.limit);
  if (!/^\d+$/.test(values.limit) || limit < 1 || limit > 1000) throw new UsageError('--limit takes 1 to 1000');
  const given = { ...values, token: tokenGiven(values.token, values['token-file']) };
  if (values.user !== undefined && values['password-secret'] !== undefined)
    throw new UsageError('--user and --password-secret both name whose token: the secret holds its user');
  const withUser = { ...given, user: given.user ?? DEFAULT_USER };
  const target = values.deployed ? await deployedTarget(withUser) : await localTarget(withUser);
  try {
    const summary = await runSmoke({ ...target, limit, log: (line) => console.error(escapeControls(line)) });
    console.log(formatSummary(summary));
  } catch (error) {
    if (!(error instanceof SmokeFailure)) throw error;
    // One line: the contract's list of breaks is joined, and the shell escapes what the server wrote.
    throw new Error(
      `Smoke check of ${target.url}: FAILED at "${error.check}": ${error.detail.replaceAll('\n- ', ' - ')}`,
    );
  }
});

/** The URL and token as given, else the local server's (by --url, --port or the running one) and its token. */
async function localTarget(values: TargetOptions) {
  for (const flag of ['outputs-file', 'env', 'reset-password', 'password-secret', 'set-password'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --deployed`);
  }
  const localDir = localDirOf(process.env);
  if (values.url !== undefined && !URL.canParse(values.url)) throw new UsageError(`--url is not a URL: ${values.url}`);
  if (values.url !== undefined && values.token !== undefined) {
    // Any API but a local server may sit behind API Gateway's JWT authorizer; a local server never
    // does, so from it that refusal body fails the check.
    return { url: values.url, token: values.token, gatewayRefusals: !isLocalServer(localDir, new URL(values.url)) };
  }
  let server: ServerRecord | undefined;
  if (values.url !== undefined) {
    server = serverAt(localDir, new URL(values.url));
  } else {
    server = findServer(localDir, values.port === undefined ? undefined : parsePort(values.port, '--port'));
    if (!server)
      throw new Error('No local server is running: start one with npm start, or give --url and --token-file');
  }
  return { url: values.url ?? server.origin, token: values.token ?? mintToken(values.user, server.port) };
}

/**
 * The local server a token may be minted for: the one whose bound origin the URL names exactly. Another
 * loopback spelling (localhost resolving to ::1, 127.0.0.2) may reach another process on that port.
 */
function serverAt(localDir: string, url: URL): ServerRecord {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const server = findServerOn(localDir, port);
  if (!server) {
    const running = runningServers(localDir).map((record) => record.origin);
    const where = running.length > 0 ? `local servers run at ${running.join(', ')}` : 'no local server is running';
    throw new UsageError(
      `No local server runs on port ${port} (${where}): start one, or for another API give --token-file`,
    );
  }
  if (url.origin !== server.origin) {
    throw new UsageError(
      `${url.origin} is not the address the local server on port ${port} is bound to: a local token is sent only to ${server.origin} (--url ${server.origin}), else give --token-file`,
    );
  }
  return server;
}

/** A local server of this machine listens at the URL (loopback, or the address it was told with --host). */
function isLocalServer(localDir: string, url: URL): boolean {
  const server = findServerOn(localDir, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
  return server !== undefined && (isLoopbackHost(url.hostname) || new URL(server.origin).hostname === url.hostname);
}

function findServerOn(localDir: string, port: number): ServerRecord | undefined {
  return runningServers(localDir).find((server) => server.port === port);
}

/** A token exactly as `npm run token -- <user> --port N` mints it. */
function mintToken(user: string, port: number): string {
  try {
    return mintLocalToken(user, { port: String(port) }).token;
  } catch (error) {
    throw new Error(`Cannot get a token for ${user}: ${(error as Error).message}`);
  }
}
