// "A deployed stack" on moto: the synthesized user pool and app client created with the template's
// own settings, the plants table, and the outputs file that `npx cdk deploy` would write.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createPlantsTable } from '../../local/store/table.ts';
import { STACK, synth } from './cdk.ts';

export const MOTO_REGION = 'eu-west-1';
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

export interface MotoDeployment {
  outputsFile: string;
  userPoolId: string;
  appClientId: string;
  tableName: string;
  /** The app client's sign-in flows as synthesized (moto does not enforce them). */
  explicitAuthFlows: string[];
  /** What the CLIs need to reach moto instead of AWS: the SDK's own endpoint and credential variables. */
  env: Record<string, string>;
  cognito: CognitoIdentityProviderClient;
  close(): void;
}

export interface SynthesizedIdentity {
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, handed to moto as they are
  pool: Record<string, any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  client: Record<string, any>;
}

/**
 * The user pool's and app client's properties as the stack synthesizes them. CPU-bound on the
 * run's first synth: await it at a test file's top level, outside any hook's timeout.
 */
export async function synthesizedIdentity(): Promise<SynthesizedIdentity> {
  const synthesized = await synth();
  const resource = (type: string) => Object.values(synthesized.template.findResources(type))[0]?.Properties;
  return { pool: resource('AWS::Cognito::UserPool'), client: resource('AWS::Cognito::UserPoolClient') };
}

export async function deployOnMoto(
  endpoint: string,
  dir: string,
  { pool, client }: SynthesizedIdentity,
  tableName = 'plants-deployed',
): Promise<MotoDeployment> {
  const cognito = new CognitoIdentityProviderClient({ endpoint, region: MOTO_REGION, credentials: CREDENTIALS });
  const { UserPool } = await cognito.send(
    new CreateUserPoolCommand({
      PoolName: STACK,
      UsernameAttributes: pool.UsernameAttributes,
      Policies: pool.Policies,
      AdminCreateUserConfig: pool.AdminCreateUserConfig,
      AccountRecoverySetting: pool.AccountRecoverySetting,
    }),
  );
  const userPoolId = UserPool?.Id ?? '';
  const { UserPoolClient } = await cognito.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'AppClient',
      ExplicitAuthFlows: client.ExplicitAuthFlows,
      GenerateSecret: client.GenerateSecret,
      PreventUserExistenceErrors: client.PreventUserExistenceErrors,
    }),
  );
  const dynamo = new DynamoDBClient({ endpoint, region: MOTO_REGION, credentials: CREDENTIALS });
  await createPlantsTable(dynamo, tableName);
  dynamo.destroy();

  const appClientId = UserPoolClient?.ClientId ?? '';
  const outputsFile = join(dir, 'cdk-outputs.json');
  const outputs = {
    ApiUrl: `https://abc123defg.execute-api.${MOTO_REGION}.amazonaws.com/`,
    TableName: tableName,
    UserPoolId: userPoolId,
    AppClientId: appClientId,
  };
  writeFileSync(outputsFile, JSON.stringify({ [STACK]: outputs }, null, 2));
  return {
    outputsFile,
    userPoolId,
    appClientId,
    tableName,
    explicitAuthFlows: client.ExplicitAuthFlows,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      // Not the stack's region: the CLIs must take it from the outputs.
      AWS_REGION: 'us-west-2',
    },
    cognito,
    close: () => cognito.destroy(),
  };
}
