// `npm run smoke -- [--url URL] [--token TOKEN] [--deployed]`: the reference client (client/) against
// an API, by default the running local server with a token from its issuer, with --deployed the
// deployed stack with a token from its user pool; exits 1 naming a failed check.

import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { formatSummary, runSmoke, SmokeFailure } from '../../client/smoke.ts';
import { deployedSession } from '../../deployed/session.ts';
import { isLoopbackHost } from '../../handlers/lib/config.ts';
import { localDirOf, parsePort } from '../server/options.ts';
import { findServer, type ServerRecord } from '../server/servers.ts';
import { parseCommandLine, UsageError } from './args.ts';

const TOKEN_CLI = fileURLToPath(new URL('token.ts', import.meta.url));
const DEFAULT_USER = 'alice';
const DEFAULT_LIMIT = 2;

const USAGE = `Usage: npm run smoke -- [--url URL] [--token TOKEN] [--user NAME] [--limit N] [--port N]
       npm run smoke -- --deployed [--user NAME] [--outputs-file FILE] [--url URL] [--limit N]

  Walks every page by following next links, checks each response against openapi.yaml, checks the
  refusals (no token, a bad token: 401; a bad limit: 400), and prints a summary.

  --url URL      the API's base URL (the stack's ApiUrl or CustomDomainUrl) or its /plants URL
                 (default: the running local server)
  --token TOKEN  a bearer token the API accepts (default for a local server: one from its issuer,
                 as npm run token -- ${DEFAULT_USER} mints it)
  --user NAME    whose token to mint from a local server's issuer (default ${DEFAULT_USER})
  --limit N      page size of the walk (default ${DEFAULT_LIMIT}, so that next links are followed)
  --port N       the local server to check (default: the running one)
  --deployed     the stack \`npx cdk deploy\` deployed last, where its links lead (PublicBaseUrl, else
                 CustomDomainUrl, else ApiUrl; or --url), with an access token from its user pool
                 for --user, created there if absent, as npm run token -- <user> --deployed does
  --outputs-file the outputs file (default: cdk.json's outputsFile, .local/cdk-outputs.json)`;

let url: string | undefined;
try {
  const { values } = parseCommandLine(
    {
      url: { type: 'string' },
      token: { type: 'string' },
      user: { type: 'string', default: DEFAULT_USER },
      limit: { type: 'string', default: String(DEFAULT_LIMIT) },
      port: { type: 'string' },
      deployed: { type: 'boolean' },
      'outputs-file': { type: 'string' },
      help: { type: 'boolean' },
    },
    false,
  );
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const limit = Number(values.limit);
  if (!/^\d+$/.test(values.limit) || limit < 1 || limit > 1000) throw new UsageError('--limit takes 1 to 1000');
  const target = values.deployed ? await deployedTarget(values) : await localTarget(values);
  url = target.url;
  const summary = await runSmoke({ ...target, limit, log: (line) => console.error(line) });
  console.log(formatSummary(summary));
} catch (error) {
  if (error instanceof SmokeFailure) {
    console.error(`Smoke check of ${url}: FAILED at "${error.check}": ${error.detail.replaceAll('\n', '\n  ')}`);
    process.exit(1);
  }
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : (error as Error).message);
  process.exit(2);
}

/** The deployed stack's URL (or --url) and a token of its pool (or --token). */
async function deployedTarget(values: {
  url?: string;
  token?: string;
  user: string;
  port?: string;
  'outputs-file'?: string;
}) {
  if (values.port !== undefined)
    throw new UsageError("--port names a local server: --deployed checks the outputs file's stack");
  if (values.url !== undefined && !URL.canParse(values.url)) throw new UsageError(`--url is not a URL: ${values.url}`);
  // A deployed API may sit behind API Gateway's JWT authorizer (-c jwtAuthorizer=true).
  if (values.url !== undefined && values.token !== undefined)
    return { url: values.url, token: values.token, gatewayRefusals: true };
  const session = await deployedSession({ user: values.user, outputsFile: values['outputs-file'] });
  if (session.created) {
    console.error(
      `Created ${session.username} in user pool ${session.outputs.userPoolId}; its password is kept in ${relative(process.cwd(), session.passwordFile)}`,
    );
  }
  // A stack behind a proxy or with a custom domain links there from any host: walk it where its links lead.
  return {
    url: values.url ?? session.outputs.linkBaseUrl ?? session.url,
    token: values.token ?? session.token,
    gatewayRefusals: true,
  };
}

/**
 * The URL and token: as given, else the local server's (--url on loopback names it by port, else
 * --port, else the running one) with a token its issuer signs.
 */
async function localTarget(values: {
  url?: string;
  token?: string;
  user: string;
  port?: string;
  'outputs-file'?: string;
}) {
  if (values['outputs-file'] !== undefined) throw new UsageError('--outputs-file goes with --deployed');
  const localDir = localDirOf(process.env);
  if (values.url !== undefined && !URL.canParse(values.url)) throw new UsageError(`--url is not a URL: ${values.url}`);
  if (values.url !== undefined && values.token !== undefined) {
    // Any API but a local server may sit behind API Gateway's JWT authorizer; a local server never
    // does, so from it that refusal body fails the check.
    return { url: values.url, token: values.token, gatewayRefusals: !isLocalServer(localDir, new URL(values.url)) };
  }
  let server: ServerRecord | undefined;
  if (values.url !== undefined) {
    const given = new URL(values.url);
    const port = Number(given.port || 80);
    server = ['localhost', '127.0.0.1', '[::1]'].includes(given.hostname) ? findServerOn(localDir, port) : undefined;
    if (!server) throw new UsageError(`Give --token: ${values.url} is not a local server running now`);
  } else {
    server = findServer(localDir, values.port === undefined ? undefined : parsePort(values.port, '--port'));
    if (!server) throw new Error('No local server is running: start one with npm start, or give --url and --token');
  }
  return { url: values.url ?? server.origin, token: values.token ?? (await mintToken(values.user, server.port)) };
}

/** A local server of this machine listens at the URL (loopback, or the address it was told with --host). */
function isLocalServer(localDir: string, url: URL): boolean {
  const server = findServerOn(localDir, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
  return server !== undefined && (isLoopbackHost(url.hostname) || new URL(server.origin).hostname === url.hostname);
}

function findServerOn(localDir: string, port: number): ServerRecord | undefined {
  try {
    return findServer(localDir, port);
  } catch {
    return undefined;
  }
}

/** A token exactly as `npm run token -- <user> --port N` mints it: its last line of output. */
async function mintToken(user: string, port: number): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TOKEN_CLI, user, '--port', String(port)]);
    return stdout.trim().split('\n').at(-1) ?? '';
  } catch (error) {
    throw new Error(`Cannot get a token for ${user}: ${(error as { stderr?: string }).stderr?.trim() ?? error}`);
  }
}
