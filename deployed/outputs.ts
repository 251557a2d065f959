// A deployed stack's outputs, as `npx cdk deploy` writes them to cdk.json's `outputsFile`.

import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultStackName, environmentOf } from '../infra/stack-environment.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Where clients call, first present first (the stack's next links follow the same order): -c publicBaseUrl,
 * the custom domain, the front's own URL (infra/front.ts).
 */
export const BASE_URL_OUTPUTS = ['PublicBaseUrl', 'CustomDomainUrl', 'ApiUrl'] as const;

export type StackOutputs = ReturnType<typeof stackOutputsOf>;

/** Thrown when there is nothing to read: the message is the one line a user needs. */
export class OutputsError extends Error {
  override name = 'OutputsError';
}

/** The environment asked for (--env) is not in the file: `cdk deploy` rewrote it with another's. */
export class StackNotInFileError extends OutputsError {
  override name = 'StackNotInFileError';
  readonly stackName: string;
  constructor(message: string, stackName: string) {
    super(message);
    this.stackName = stackName;
  }
}

/** cdk.json's `outputsFile`, resolved against the project (the CDK CLI runs there). */
export function defaultOutputsFile(): string {
  const cdkJson = JSON.parse(readFileSync(resolve(REPO_ROOT, 'cdk.json'), 'utf8')) as { outputsFile?: string };
  return resolve(REPO_ROOT, cdkJson.outputsFile ?? 'cdk-outputs.json');
}

/** `given`: as typed (relative to INIT_CWD); `environment` (--env): whose stack, else the file must hold one. */
export function readOutputs(given?: string, environment?: string) {
  const file = given === undefined ? defaultOutputsFile() : resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const near = relative(process.cwd(), file);
  const shown = near && !near.startsWith('..') ? near : file;
  let stacks: Record<string, Record<string, string>>;
  try {
    stacks = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    const problem = code === 'ENOENT' ? 'No deployment outputs in' : 'Unreadable deployment outputs in';
    // The file the user named is theirs to check; the default one is written by deploying.
    const message =
      given === undefined
        ? `${problem} ${shown}: deploy first with "npx cdk deploy" (cdk.json's outputsFile writes them there), or pass --outputs-file FILE`
        : `${problem} ${shown} (--outputs-file): check the path, or leave the option out to read the file "npx cdk deploy" writes (cdk.json's outputsFile)`;
    // With --env the stack is named whatever the file holds: a machine that never deployed (an
    // administrator's, after the pipeline's first deploy) asks CloudFormation (stack-outputs.ts).
    if (code === 'ENOENT' && environment !== undefined)
      throw new StackNotInFileError(message, wantedStack(environment));
    throw new OutputsError(message);
  }
  // With an option's stack beside the service's, `cdk deploy --all` also writes that stack's outputs
  // (no ApiUrl): the service's stack is the one with an API.
  const all = Object.keys(stacks ?? {});
  const withApi = all.filter((name) => stacks[name]?.ApiUrl !== undefined);
  const stackName = pickStack(withApi.length > 0 ? withApi : all, environment, shown);
  return stackOutputsOf(stackName, stacks[stackName] ?? {}, file, shown);
}

/** One stack's outputs (`OutputKey` → `OutputValue`), wherever they were read: `shown` says where. */
export function stackOutputsOf(stackName: string, outputs: Record<string, string>, file: string, shown: string) {
  const { ApiUrl: apiUrl, TableName: tableName } = outputs;
  if (!apiUrl || !tableName) {
    throw new OutputsError(`${shown} has no ApiUrl or TableName for stack ${stackName}: is it this project's stack?`);
  }
  return {
    stackName,
    file,
    region: outputs.Region ?? regionOf(apiUrl, outputs.UserPoolId, shown),
    apiUrl,
    // Where clients call and next links point (ends in `/`).
    baseUrl: BASE_URL_OUTPUTS.map((name) => outputs[name]).find(Boolean) ?? apiUrl,
    tableName,
    // Absent when the stack verifies an external issuer's tokens (no user pool).
    userPoolId: outputs.UserPoolId,
    appClientId: outputs.AppClientId,
    // Present when the stack requires a scope: users' tokens are then refused with 403.
    machineClientId: outputs.MachineClientId,
  };
}

/** `cdk deploy` rewrites the file with the stacks it deployed: it may hold another environment's, never guess. */
function pickStack(names: string[], environment: string | undefined, shown: string): string {
  if (environment !== undefined) {
    const wanted = wantedStack(environment);
    if (names.includes(wanted)) return wanted;
    throw new StackNotInFileError(
      `${shown} has no outputs of stack ${wanted} (--env ${environment}), only of ${names.join(', ') || 'none'}: ` +
        `"npx cdk deploy -c env=${environment}" writes them there`,
      wanted,
    );
  }
  const [only] = names;
  if (names.length === 1 && only !== undefined) return only;
  if (names.length === 0) throw new OutputsError(`${shown} holds no stack's outputs: deploy again`);
  throw new OutputsError(`${shown} holds the outputs of ${names.join(', ')}: say which with --env NAME`);
}

/** The stack of the environment --env names (infra/stack-environment.ts), or why it names none. */
function wantedStack(environment: string): string {
  try {
    return defaultStackName(environmentOf(() => environment));
  } catch (error) {
    throw new OutputsError(`--env: ${(error as Error).message.replace(/^env /, '')}`);
  }
}

// The stack's region, where no Region output names it, is in its resources' addresses: the
// execute-api host, the user pool id's prefix.
function regionOf(apiUrl: string, userPoolId: string | undefined, shown: string): string {
  const fromUrl = /\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/.exec(
    URL.canParse(apiUrl) ? new URL(apiUrl).hostname : '',
  );
  const region = fromUrl?.[1] ?? /^([a-z0-9-]+)_/.exec(userPoolId ?? '')?.[1];
  if (!region) throw new OutputsError(`Cannot tell the region from ${shown} (ApiUrl ${apiUrl}): deploy again`);
  return region;
}
