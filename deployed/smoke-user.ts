// The pipeline's smoke user: name and password from its environment's Secrets Manager secret.

import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { DeployedUserError, givePassword } from './cognito.ts';

/**
 * `{"username", "password"}` from the secret (anything else is refused naming the secret, not its value);
 * with `setPassword` (an administrator, once per pool and after each rotation; never the pipeline) given to
 * the user first.
 */
export async function secretUser(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  region: string,
  secretId: string,
  { setPassword, environment }: { setPassword?: boolean | undefined; environment?: string | undefined },
) {
  const secrets = new SecretsManagerClient({ region });
  try {
    const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId })).catch((error) => {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      throw new DeployedUserError(
        `No secret ${secretId} in ${region}: the access stack makes one per environment, PlantStoreSmoke-<env> (docs/pipeline.md)`,
      );
    });
    let fields: Record<string, unknown> = {};
    try {
      fields = JSON.parse(SecretString ?? '') ?? {};
    } catch {
      // Not JSON: refused below, as any other shape.
    }
    const { username, password } = fields;
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
      throw new DeployedUserError(
        `Secret ${secretId} does not hold {"username", "password"} as the access stack writes it: deploy the access stack again (docs/pipeline.md)`,
      );
    }
    if (setPassword) await givePassword(cognito, userPoolId, username, password, { create: true });
    const whenRefused = `${username} does not sign in to user pool ${userPoolId} with the password in secret ${secretId}: an administrator gives it that password once, ${setUpCommand(secretId, environment)}`;
    return { username, password, created: false, passwordFile: `secret ${secretId}`, whenRefused };
  } finally {
    secrets.destroy();
  }
}

/** What to do when the secret's password does not sign its user in: the administrator's command. */
export const setUpCommand = (secretId: string, environment: string | undefined) =>
  `npm run smoke -- --deployed${environment ? ` --env ${environment}` : ''} --password-secret ${secretId} --set-password`;
