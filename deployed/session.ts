// A deployed stack's API URL and an access token for one of its users.

import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { COGNITO_GROUPS_CLAIM } from '../handlers/lib/config.ts';
import { explainAwsError } from './aws-errors.ts';
import { addToGroups, DeployedUserError, ensureUser, givePassword, signIn } from './cognito.ts';
import type { StackOutputs } from './outputs.ts';
import { readSecretUser, setUpCommand } from './smoke-user.ts';
import { stackOutputs } from './stack-outputs.ts';

export interface DeployedSessionOptions {
  /** `alice` (for alice@example.com) or an e-mail address. */
  user: string;
  /** Groups to add the user to (created when absent); groups the user is in already stay. */
  groups?: readonly string[];
  resetPassword?: boolean;
  /** Default: cdk.json's outputsFile, which `npx cdk deploy` writes. */
  outputsFile?: string;
  /** --env: the environment whose stack to use, when the outputs file may hold several. */
  environment?: string | undefined;
  /** Where generated passwords are kept: the local tools' folder (PLANTS_LOCAL_DIR, else .local/). */
  localDir: string;
  /** --password-secret: sign in as this Secrets Manager secret's user, no Admin* call (the pipeline's smoke check). */
  passwordSecret?: string | undefined;
  /** --set-password (an administrator, once): give the secret's user its password first. */
  setPassword?: boolean;
}

export interface DeployedSession {
  /** The stage URL (ApiUrl, ends in `/`): GET `${url}plants`. */
  url: string;
  token: string;
  username: string;
  sub: string;
  /** The groups the token names (all the user's groups, not only those just added). */
  groups: string[];
  /** The user did not exist and was created by this call (never with a password secret). */
  created: boolean;
  /** Where the password is kept: a file under the local folder, or `secret <id>`. */
  passwordFile: string;
  expiresAt: Date;
  outputs: StackOutputs;
}

/** Uses the AWS SDK's default credentials (AWS_PROFILE, environment, SSO…) in the stack's region. */
export async function deployedSession(options: DeployedSessionOptions): Promise<DeployedSession> {
  const outputs = await stackOutputs(options.outputsFile, options.environment);
  const { userPoolId, appClientId } = outputs;
  if (!userPoolId || !appClientId) {
    throw new DeployedUserError(
      `Stack ${outputs.stackName} has no user pool (no UserPoolId in ${outputs.file}): it verifies an external issuer's tokens, so get one from that issuer`,
    );
  }
  const cognito = new CognitoIdentityProviderClient({ region: outputs.region });
  try {
    const user = options.passwordSecret
      ? await secretUser(cognito, userPoolId, outputs.region, options.passwordSecret, options)
      : await ensureUser(cognito, {
          userPoolId,
          localDir: options.localDir,
          user: options.user,
          resetPassword: options.resetPassword ?? false,
        }).then((ensured) => ({
          ...ensured,
          whenRefused: `The password in ${ensured.passwordFile} no longer signs ${ensured.username} in (changed elsewhere?): pass --reset-password`,
        }));
    if (!options.passwordSecret) await addToGroups(cognito, userPoolId, user.username, options.groups ?? []);
    const { accessToken, expiresIn } = await signIn(cognito, appClientId, user, user.whenRefused);
    const claims = claimsOf(accessToken);
    return {
      url: outputs.apiUrl,
      token: accessToken,
      username: user.username,
      sub: String(claims.sub),
      groups: groupsOf(claims),
      created: user.created,
      passwordFile: user.passwordFile,
      expiresAt: new Date(Date.now() + expiresIn * 1000),
      outputs,
    };
  } catch (error) {
    throw explainAwsError(error, outputs);
  } finally {
    cognito.destroy();
  }
}

async function secretUser(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  region: string,
  secretId: string,
  options: DeployedSessionOptions,
) {
  const secrets = new SecretsManagerClient({ region });
  try {
    const user = await readSecretUser(secrets, secretId);
    // An administrator's one call per pool (and after each rotation); never the pipeline's.
    if (options.setPassword) await givePassword(cognito, userPoolId, user.username, user.password, { create: true });
    const whenRefused = `${user.username} does not sign in to user pool ${userPoolId} with the password in secret ${secretId}: an administrator gives it that password once, ${setUpCommand(secretId, options.environment)}`;
    return { ...user, created: false, passwordFile: `secret ${secretId}`, whenRefused };
  } finally {
    secrets.destroy();
  }
}

// Read from the token itself: what the API will see, whatever else the pool says.
const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));

function groupsOf(claims: Record<string, unknown>): string[] {
  const groups = claims[COGNITO_GROUPS_CLAIM];
  return Array.isArray(groups) ? groups.map(String) : [];
}
