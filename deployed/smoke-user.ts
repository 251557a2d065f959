// The pipeline's smoke user: name and password from its environment's Secrets Manager secret.

import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { DeployedUserError } from './cognito.ts';

/** `{"username", "password"}` from the secret; anything else is refused naming the secret, not its value. */
export async function readSecretUser(secrets: SecretsManagerClient, secretId: string) {
  let SecretString: string | undefined;
  try {
    ({ SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId })));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    const region = await secrets.config.region();
    throw new DeployedUserError(
      `No secret ${secretId} in ${region}: the access stack makes one per environment, PlantStoreSmoke-<env> (docs/pipeline.md)`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(SecretString ?? '');
  } catch {
    parsed = undefined;
  }
  const { username, password } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
    throw new DeployedUserError(
      `Secret ${secretId} does not hold {"username", "password"} as the access stack writes it: deploy the access stack again (docs/pipeline.md)`,
    );
  }
  return { username, password };
}

/** What to do when the secret's password does not sign its user in: the administrator's command. */
export const setUpCommand = (secretId: string, environment: string | undefined) =>
  `npm run smoke -- --deployed${environment ? ` --env ${environment}` : ''} --password-secret ${secretId} --set-password`;
