// A deployed stack's outputs and an access token for one of its users (AWS SDK default credentials).

import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_GROUPS_CLAIM } from '../handlers/lib/config.ts';
import { explainAwsError } from './aws-errors.ts';
import { addToGroups, DeployedUserError, ensureUser, signIn } from './cognito.ts';
import { secretUser } from './smoke-user.ts';
import { stackOutputs } from './stack-outputs.ts';

export interface DeployedSessionOptions {
  /** `alice` (for alice@example.com) or an e-mail address. */
  user: string;
  /** Added to the user (created when absent); groups the user is in already stay. */
  groups?: readonly string[];
  resetPassword?: boolean;
  outputsFile?: string | undefined;
  environment?: string | undefined;
  /** Where generated passwords are kept (passwords.ts). */
  localDir: string;
  /** Sign in as this Secrets Manager secret's user, no Admin* call (the pipeline's smoke check). */
  passwordSecret?: string | undefined;
  /** An administrator, once: give the secret's user its password first. */
  setPassword?: boolean;
}

export async function deployedSession(options: DeployedSessionOptions) {
  const outputs = await stackOutputs(options.outputsFile, options.environment);
  const { userPoolId, appClientId, region } = outputs;
  if (!userPoolId || !appClientId) {
    throw new DeployedUserError(
      `Stack ${outputs.stackName} has no user pool (no UserPoolId in ${outputs.file}): it verifies an external issuer's tokens, so get one from that issuer`,
    );
  }
  const cognito = new CognitoIdentityProviderClient({ region });
  try {
    const secret = options.passwordSecret;
    const user = secret
      ? await secretUser(cognito, userPoolId, region, secret, options)
      : await ensureUser(cognito, { ...options, userPoolId, resetPassword: options.resetPassword ?? false }).then(
          (ensured) => ({
            ...ensured,
            whenRefused: `The password in ${ensured.passwordFile} no longer signs ${ensured.username} in (changed elsewhere?): pass --reset-password`,
          }),
        );
    if (!secret) await addToGroups(cognito, userPoolId, user.username, options.groups ?? []);
    const { accessToken, expiresIn } = await signIn(cognito, appClientId, user, user.whenRefused);
    // Read from the token itself: what the API will see, whatever else the pool says.
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const groups = claims[COGNITO_GROUPS_CLAIM];
    return {
      token: accessToken as string,
      username: user.username,
      sub: String(claims.sub),
      groups: Array.isArray(groups) ? groups.map(String) : [],
      created: user.created,
      /** A file under the local folder, or `secret <id>`. */
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
