// The deployed stack's table for the data CLI (--deployed), with user names resolved to their `sub`.

import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { explainAwsError } from './aws-errors.ts';
import { poolUsername, subOf } from './cognito.ts';
import { stackOutputs } from './stack-outputs.ts';

export async function connectToDeployed(outputsFile: string | undefined, environment?: string) {
  const outputs = await stackOutputs(outputsFile, environment);
  const { region, tableName, userPoolId, stackName } = outputs;
  const raw = new DynamoDBClient({ region });
  const cognito = userPoolId ? new CognitoIdentityProviderClient({ region }) : undefined;
  const close = async () => {
    raw.destroy();
    cognito?.destroy();
  };
  const exists = await raw.send(new DescribeTableCommand({ TableName: tableName })).then(
    () => true,
    async (error: unknown) => {
      if (error instanceof ResourceNotFoundException) return false;
      await close();
      throw explainAwsError(error, outputs);
    },
  );
  if (!exists) {
    await close();
    throw new Error(`Table ${tableName} of stack ${stackName} does not exist in ${region} (destroyed?): deploy again`);
  }
  // One lookup per user, however many rows of an import name them.
  const subs = new Map<string, Promise<string>>();
  return {
    client: DynamoDBDocumentClient.from(raw),
    tableName,
    description: `table ${tableName} of stack ${stackName} in ${region}${userPoolId ? `, users of pool ${userPoolId}` : ''}`,
    close,
    /** A user as people name them (alice, alice@example.com) → their sub; as given without a pool. */
    ownerSub(user: string): Promise<string> {
      if (!cognito || !userPoolId) return Promise.resolve(user);
      let sub = subs.get(user);
      if (!sub) {
        sub = subOf(cognito, userPoolId, user).then(
          (value) => {
            console.error(`${poolUsername(user)}: sub ${value}`);
            return value;
          },
          (error) => Promise.reject(explainAwsError(error, outputs)),
        );
        subs.set(user, sub);
      }
      return sub;
    },
  };
}
