// The function's DynamoDB client: the SDK's document client, configured from readConfig, each attempt
// bounded by the SDK's timeouts and the answer's size, the whole page by plants.ts's deadline (an
// abort signal passed to each send).

import { pipeline, Readable, Transform } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from './environment.ts';
import { ServiceUnavailableError } from './errors.ts';
import { traceAwsClient } from './observability.ts';
import { isUnavailable, type PlantsClient } from './plants.ts';

/**
 * DynamoDB sends at most 1 MB of items per Query: an answer past 2 MB is not DynamoDB's (a proxy, a
 * loop) and is refused as it arrives (a 503), never held in memory.
 */
export const MAX_RESPONSE_BYTES = 2 * 2 ** 20;

export function createPlantsClient({ dynamodbEndpoint, aws }: Pick<Config, 'dynamodbEndpoint' | 'aws'>): PlantsClient {
  const client = new DynamoDBClient({
    // No Region: refused at the first call, as the SDK refuses it, never looked up elsewhere.
    region: aws.region ?? ((): Promise<string> => Promise.reject(new Error('Region is missing: set AWS_REGION'))),
    useFipsEndpoint: aws.useFipsEndpoint,
    useDualstackEndpoint: aws.useDualstackEndpoint,
    ...(dynamodbEndpoint && { endpoint: dynamodbEndpoint }),
    // Three attempts of at most 0.5 s to connect and 1 s without a byte; the page's deadline
    // (plants.ts) ends whatever is still running, backoff included.
    maxAttempts: 3,
    // Without throwOnRequestTimeout the SDK only logs a warning and keeps waiting.
    requestHandler: { connectionTimeout: 500, requestTimeout: 1000, throwOnRequestTimeout: true },
  });
  // Inside the deserializer: the answer's body as it arrives, failing (and closing its connection)
  // once it passes MAX_RESPONSE_BYTES.
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const response = result.response as { body?: unknown };
      if (response.body instanceof Readable) response.body = pipeline(response.body, byteCap(), () => {});
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'responseByteCap' },
  );
  traceAwsClient(client);
  const documents = DynamoDBDocumentClient.from(client);
  return {
    async query(input, options) {
      try {
        return await documents.send(new QueryCommand(input), options);
      } catch (error) {
        throw unavailable(error) ? new ServiceUnavailableError(error) : error;
      }
    },
  };
}

function byteCap() {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes <= MAX_RESPONSE_BYTES) return done(null, chunk);
      done(Object.assign(new Error(`The answer passed ${MAX_RESPONSE_BYTES} bytes`), { name: 'ResponseTooLarge' }));
    },
  });
}

/** An answer too large, or what isUnavailable says is worth a retry later. */
function unavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return error.name === 'ResponseTooLarge' || isUnavailable(error.name, status);
}
