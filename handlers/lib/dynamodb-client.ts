// The function's DynamoDB client: the SDK's DynamoDB client, configured from readConfig, each attempt
// bounded by timeouts cut from the page's deadline and by the answer's size, the whole page by the
// deadline itself (plants.ts: an abort signal passed to each send). Values cross in document form
// (plain strings), marshalled by the SDK's util-dynamodb.

import { pipeline, Readable, Transform } from 'node:stream';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import type { Config } from './environment.ts';
import { ServiceUnavailableError } from './errors.ts';
import { traceAwsClient } from './observability.ts';
import { MAX_ITEM_BYTES } from './page-budget.ts';
import type { PlantsClient } from './plants.ts';

/**
 * The most one Query answer can legally hold: DynamoDB stops reading at 1 MB of stored data (the
 * item that crosses it included), JSON escapes a stored byte into at most 6 (a control character as
 * `\u0001`), and each item (up to MAX_ANSWER_ITEMS: `limit` + 1 of the largest page) adds its framing
 * (`{"id":{"S":…},…}`), the answer its keys and counts. Past it the answer is not DynamoDB's (a proxy,
 * a loop) and is refused as it arrives (a 503), never held in memory.
 */
const MAX_READ_BYTES = 2 ** 20 + MAX_ITEM_BYTES;
const MAX_ANSWER_ITEMS = 10_001;
export const MAX_RESPONSE_BYTES = MAX_READ_BYTES * 6 + MAX_ANSWER_ITEMS * 64 + 64 * 2 ** 10;

export function createPlantsClient({
  dynamodbEndpoint,
  dynamodbDeadlineMs,
  aws,
}: Pick<Config, 'dynamodbEndpoint' | 'dynamodbDeadlineMs' | 'aws'>): PlantsClient {
  const client = new DynamoDBClient({
    // No Region: refused at the first call, as the SDK refuses it, never looked up elsewhere.
    region: aws.region ?? ((): Promise<string> => Promise.reject(new Error('Region is missing: set AWS_REGION'))),
    useFipsEndpoint: aws.useFipsEndpoint,
    useDualstackEndpoint: aws.useDualstackEndpoint,
    ...(dynamodbEndpoint && { endpoint: dynamodbEndpoint }),
    // Three attempts, each at most a sixth of the deadline to connect and a quarter without a byte
    // (0.5 s and 0.75 s of the deployed 3 s), so that all three and the SDK's backoff between them
    // (at most 0.3 s) fit inside the deadline, which still ends whatever runs past it.
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: Math.ceil(dynamodbDeadlineMs / 6),
      requestTimeout: Math.ceil(dynamodbDeadlineMs / 4),
      // Without it the SDK only logs a warning and keeps waiting.
      throwOnRequestTimeout: true,
    },
  });
  // Inside the deserializer: an answer that announces more than MAX_RESPONSE_BYTES is refused (and its
  // connection closed) unread; one that announces no length (chunked, or up to the connection's close)
  // is counted as it arrives and fails once past it. One that announces a length within the cap needs
  // no count: Node's HTTP parser ends a body at its Content-Length, whatever follows on the socket.
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const { body, headers } = result.response as { body?: unknown; headers?: Record<string, string> };
      if (!(body instanceof Readable)) return result;
      const length = headers?.['content-length'];
      if (length === undefined) {
        (result.response as { body: unknown }).body = pipeline(body, byteCap(), () => {});
      } else if (Number(length) > MAX_RESPONSE_BYTES) {
        body.destroy();
        throw tooLarge();
      }
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'responseByteCap' },
  );
  traceAwsClient(client);
  return {
    // The document client's QueryCommand, without its walk of every attribute of every item: only the
    // query's values are marshalled, and each item read unmarshalled whole (lab/docs/performance.md).
    async query({ ExpressionAttributeValues, ExclusiveStartKey, ...query }, options) {
      try {
        const page = await client.send(
          new QueryCommand({
            ...query,
            ExpressionAttributeValues: marshall(ExpressionAttributeValues),
            ...(ExclusiveStartKey && { ExclusiveStartKey: marshall(ExclusiveStartKey) }),
          }),
          options,
        );
        return {
          Items: page.Items?.map((item) => unmarshall(item)),
          LastEvaluatedKey: page.LastEvaluatedKey && unmarshall(page.LastEvaluatedKey),
        };
      } catch (error) {
        throw isUnavailable(error) ? new ServiceUnavailableError(error) : error;
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
      done(tooLarge());
    },
  });
}

const tooLarge = () =>
  Object.assign(new Error(`The answer passed ${MAX_RESPONSE_BYTES} bytes`), { name: 'ResponseTooLarge' });

/**
 * Worth a retry later, so the caller gets a 503: what the SDK's own retry strategy counts as throttling,
 * transient (a connection refused, reset or closed mid-answer, whatever status it had sent) or a server
 * error; no answer at all; an answer too large. Anything else (a refused request: our fault) stays a 500.
 */
function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const failure = error as Error & Parameters<typeof isTransientError>[0];
  return (
    failure.name === 'ResponseTooLarge' ||
    failure.$metadata?.httpStatusCode === undefined ||
    isThrottlingError(failure) ||
    isTransientError(failure) ||
    isServerError(failure)
  );
}
