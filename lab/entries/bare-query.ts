// Baseline for warm latency: the same DynamoDB Query as the handler's, with no Middy, no auth
// and no response mapping. What the handler adds on top of it is the cost of our layers.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../handlers/lib/environment.ts';
import { userPartition } from '../../handlers/lib/partitions.ts';
import { OWNER_CONDITION, ownerRead } from '../../handlers/lib/plant-query.ts';

const tableName = process.env[ENV.tableName];
const owner = process.env.BENCH_CALLER;
const endpoint = process.env[ENV.dynamodbEndpoint];
// The SDK keeps connections alive by default; BENCH_KEEP_ALIVE=0 is the variants' experiment.
const keepAlive = process.env.BENCH_KEEP_ALIVE !== '0';
const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({ ...(endpoint && { endpoint }), requestHandler: { httpAgent: { keepAlive } } }),
);

export const handler = async () => {
  const page = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: OWNER_CONDITION,
      ...ownerRead(userPartition(owner ?? '')),
      Limit: 1001,
    }),
  );
  return { statusCode: 200, body: JSON.stringify(page.Items) };
};
