// bench:variants' DynamoDB client as the function had it before issue 36: AWS SDK v3, sized by its
// settings for one Query. Same exports as handlers/lib/dynamodb-client.ts, which the variant replaces
// at build time (lab/docs/performance.md says why the function left it).

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailableError } from '../../handlers/lib/errors.ts';
import { isUnavailable, type PlantsClient, type PlantsQuery } from '../../handlers/lib/plants.ts';

/**
 * The SDK's document client with the one call plants.ts makes. Still an SDK client, so tracing's
 * captureAWSv3Client (observability.ts) records every Query it sends.
 */
export class SdkPlantsClient extends DynamoDBDocumentClient implements PlantsClient {
  constructor(client: DynamoDBClient) {
    super(client);
  }

  async query(input: PlantsQuery, options?: { abortSignal?: AbortSignal }) {
    try {
      return await this.send(new QueryCommand(input), options);
    } catch (error) {
      throw unavailable(error) ? new ServiceUnavailableError(error) : error;
    }
  }
}

// Bounded retries and timeouts keep the worst case (3 attempts of 0.5 s connect + 1 s response,
// plus backoff) far inside the function timeout, so an outage answers 503 rather than timing out.
export function createPlantsClient(endpoint: string | undefined): SdkPlantsClient {
  const client = new DynamoDBClient({
    maxAttempts: 3,
    // Without throwOnRequestTimeout the SDK only logs a warning and keeps waiting.
    requestHandler: { connectionTimeout: 500, requestTimeout: 1000, throwOnRequestTimeout: true },
    ...(endpoint && { endpoint }),
  });
  return new SdkPlantsClient(client);
}

function unavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return isUnavailable(error.name, status);
}
