// A deployed stack's API URL and an access token for one of its users: what `npm run token --
// --deployed` prints and what a client (the smoke check) needs to call the deployed API.

import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_GROUPS_CLAIM } from '../handlers/lib/config.ts';
import { explainAwsError } from './aws-errors.ts';
import { addToGroups, DeployedUserError, ensureUser, poolUsername, signIn } from './cognito.ts';
import type { StackOutputs } from './outputs.ts';
import { stackOutputs } from './stack-outputs.ts';

export interface DeployedSessionOptions {
  /** `alice` (for alice@example.com) or an e-mail address. */
  user: string;
  /** Groups to add the user to (created when absent); groups the user is in already stay. */
  groups?: readonly string[];
  /** Give a user made elsewhere a new generated password instead of refusing. */
  resetPassword?: boolean;
  /** Default: cdk.json's outputsFile, which `npx cdk deploy` writes. */
  outputsFile?: string;
  /** --env: the environment whose stack to use, when the outputs file may hold several. */
  environment?: string | undefined;
  /** Where generated passwords are kept: the local tools' folder (PLANTS_LOCAL_DIR, else .local/). */
  localDir: string;
}

export interface DeployedSession {
  /** The stage URL (ApiUrl, ends in `/`): GET `${url}plants`. */
  url: string;
  /** A Cognito access token, as the app client's users get one. */
  token: string;
  username: string;
  sub: string;
  /** The groups the token names (all the user's groups, not only those just added). */
  groups: string[];
  /** The user did not exist and was created by this call. */
  created: boolean;
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
    const user = await ensureUser(cognito, {
      userPoolId,
      localDir: options.localDir,
      user: options.user,
      resetPassword: options.resetPassword ?? false,
    });
    await addToGroups(cognito, userPoolId, user.username, options.groups ?? []);
    const { accessToken, expiresIn } = await signIn(cognito, appClientId, user);
    return {
      url: outputs.apiUrl,
      token: accessToken,
      username: poolUsername(options.user),
      sub: user.sub,
      groups: groupsOf(accessToken),
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

// Read from the token itself: what the API will see, whatever else the pool says.
function groupsOf(token: string): string[] {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  const groups = payload[COGNITO_GROUPS_CLAIM];
  return Array.isArray(groups) ? groups.map(String) : [];
}
