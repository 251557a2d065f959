// The lab's yardstick DynamoDB client (the function's from issue 36 to 41), sized for its one Query:
// DynamoDB's JSON protocol over node:https with keep-alive, signed by the SDK's own SigV4 signer
// (@smithy/signature-v4), retried by the SDK's standard retry strategy (@smithy/core/retry), items
// (un)marshalled by @aws-sdk/util-dynamodb. Same exports as handlers/lib/dynamodb-client.ts, which
// its variant replaces at build time (lab/docs/performance.md), and the same operations: PlantsClient's
// (today `query`), so an operation added there fails the lab's typecheck until it is added here.

import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { isServerError, isThrottlingError, isTransientError, StandardRetryStrategy } from '@smithy/core/retry';
import { SignatureV4 } from '@smithy/signature-v4';
import { defaultProvider } from '../../../handlers/lib/credentials-from-env.ts';
import type { Config } from '../../../handlers/lib/environment.ts';
import { ServiceUnavailableError } from '../../../handlers/lib/errors.ts';
import type { PartitionRead } from '../../../handlers/lib/group-cache.ts';
import type { PlantsClient, PlantsQuery } from '../../../handlers/lib/plants.ts';
import { isUnavailable } from '../unavailable.ts';
import { endpointOf } from './endpoint.ts';
import { createAgents, post } from './http.ts';

// Three attempts, as the SDK client has (maxAttempts: 3), each with its timeouts cut from the page's
// deadline as handlers/lib/dynamodb-client.ts cuts them (a sixth to connect, a quarter without a
// byte), so the worst case stays inside the deadline and an outage answers 503 rather than timing out.
// The backoff's base is the SDK DynamoDB client's own (its defaultBaseDelay, 25 ms; throttling 1 s).
const RETRY = { maxAttempts: 3, baseDelay: 25 };

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData): string | Uint8Array => {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
};

/** The hash the signer asks for, on node:crypto (the SDK's Node client uses the same). */
class Sha256 {
  readonly #hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.#hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.#hash.digest();
  }
}

export function createPlantsClient({
  dynamodbEndpoint,
  dynamodbDeadlineMs,
  aws,
}: Pick<Config, 'dynamodbEndpoint' | 'dynamodbDeadlineMs' | 'aws'>): PlantsClient {
  const { region } = aws;
  const resolved = endpointOf(dynamodbEndpoint, aws);
  const config = () => {
    if (!region || !resolved) throw new Error('Region is missing');
    return { region, url: resolved };
  };
  const signer = new SignatureV4({
    service: 'dynamodb',
    region: async () => config().region,
    credentials: defaultProvider(),
    sha256: Sha256,
  });
  const agents = createAgents();
  const timeouts = { connectionMs: Math.ceil(dynamodbDeadlineMs / 6), requestMs: Math.ceil(dynamodbDeadlineMs / 4) };
  const retries = new StandardRetryStrategy(RETRY);

  async function attempt(input: PlantsQuery, signal: AbortSignal | undefined): Promise<PartitionRead> {
    const { url } = config();
    const body = JSON.stringify({
      ...input,
      ExpressionAttributeValues: marshall(input.ExpressionAttributeValues),
      ...(input.ExclusiveStartKey && { ExclusiveStartKey: marshall(input.ExclusiveStartKey) }),
    });
    const signed = await signer.sign({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port && { port: Number(url.port) }),
      path: url.pathname,
      query: {},
      headers: {
        host: url.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.Query',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    });
    const { status, requestId, text } = await post(url, signed.headers, body, agents, timeouts, signal);
    const payload = JSON.parse(text || '{}');
    if (status !== 200) throw serviceError(status, requestId, payload);
    return {
      Items: (payload.Items ?? []).map((item: never) => unmarshall(item)),
      ...(payload.LastEvaluatedKey && { LastEvaluatedKey: unmarshall(payload.LastEvaluatedKey) }),
    };
  }

  return {
    async query(input, options) {
      let token = await retries.acquireInitialRetryToken('dynamodb');
      for (;;) {
        try {
          const page = await attempt(input, options?.abortSignal);
          retries.recordSuccess(token);
          return page;
        } catch (error) {
          const failure = error as Error & { $metadata?: { httpStatusCode?: number } };
          try {
            if (options?.abortSignal?.aborted) throw failure;
            token = await retries.refreshRetryTokenForRetry(token, { errorType: errorType(failure) });
          } catch {
            const status = failure.$metadata?.httpStatusCode;
            throw isUnavailable(failure.name, status) ? new ServiceUnavailableError(failure) : failure;
          }
        }
      }
    },
  };
}

/** The SDK's classification of a failed attempt (its retry strategy decides from it). */
function errorType(error: Error & { $metadata?: { httpStatusCode?: number } }) {
  const sdkError = error as Parameters<typeof isThrottlingError>[0];
  if (isThrottlingError(sdkError)) return 'THROTTLING';
  if (isTransientError(sdkError)) return 'TRANSIENT';
  if (isServerError(sdkError)) return 'SERVER_ERROR';
  return 'CLIENT_ERROR';
}

/** DynamoDB's error body `{__type: "…#Name", message}` as the SDK throws it: name, status, request id. */
function serviceError(
  status: number,
  requestId: string | undefined,
  payload: { __type?: string; message?: string; Message?: string },
) {
  const name = payload.__type?.split('#').at(-1) ?? `Http${status}`;
  const error = new Error(payload.message ?? payload.Message ?? name);
  return Object.assign(error, {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status, requestId },
  });
}
