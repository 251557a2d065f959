// bench:variants' small maintained client: @aws-lite/client with its DynamoDB plugin. Same exports and
// operations (PlantsClient's, today `query`) as handlers/lib/dynamodb-client.ts, which the variant
// replaces at build time. What it lacks against the SDK (lab/docs/performance.md): request timeouts,
// a retry quota, FIPS and dual-stack, and ExclusiveStartKey marshalling (done here, for the table's
// string keys).

import awsLite from '@aws-lite/client';
import dynamodb from '@aws-lite/dynamodb';
import type { Config } from '../../handlers/lib/environment.ts';
import { ServiceUnavailableError } from '../../handlers/lib/errors.ts';
import type { PlantsClient } from '../../handlers/lib/plants.ts';
import { isUnavailable } from './unavailable.ts';

interface LiteDynamo {
  Query(input: object): Promise<{ Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> }>;
}

/** The plants table's keys are strings (owner, id): DynamoDB JSON for them. */
const stringKey = (key: Record<string, string>) =>
  Object.fromEntries(Object.entries(key).map(([name, value]) => [name, { S: value }]));

export function createPlantsClient({
  dynamodbEndpoint: endpoint,
  aws,
}: Pick<Config, 'dynamodbEndpoint' | 'aws'>): PlantsClient {
  // Two retries, as the SDK client's three attempts; the client is made once, at the first call.
  let client: Promise<{ DynamoDB: LiteDynamo }> | undefined;
  const connect = () =>
    (client ??= awsLite({
      region: aws.region,
      ...(endpoint && { endpoint }),
      plugins: [dynamodb],
      autoloadPlugins: false,
      awsConfigFile: false,
      retries: 2,
      keepAlive: true,
    }) as unknown as Promise<{ DynamoDB: LiteDynamo }>);
  return {
    async query(input) {
      try {
        const { ExclusiveStartKey, ...rest } = input;
        const page = await (await connect()).DynamoDB.Query({
          ...rest,
          ...(ExclusiveStartKey && { ExclusiveStartKey: stringKey(ExclusiveStartKey) }),
        });
        return { Items: page.Items ?? [], ...(page.LastEvaluatedKey && { LastEvaluatedKey: page.LastEvaluatedKey }) };
      } catch (error) {
        const failure = error as { name?: string; statusCode?: number };
        throw isUnavailable(failure.name ?? '', failure.statusCode) ? new ServiceUnavailableError(error) : error;
      }
    },
  };
}
