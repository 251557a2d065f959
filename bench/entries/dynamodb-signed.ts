// bench:variants' smallest client that keeps AWS's own code where it matters: DynamoDB's JSON protocol
// over node:https with keep-alive, signed by the SDK's SigV4 signer (@smithy/signature-v4), retried
// by the SDK's own standard retry strategy, items (un)marshalled by @aws-sdk/util-dynamodb. Same
// exports as handlers/lib/dynamodb-client.ts, which the variant replaces at build time.

import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { isServerError, isThrottlingError, isTransientError, StandardRetryStrategy } from '@smithy/core/retry';
import { SignatureV4 } from '@smithy/signature-v4';
import { defaultProvider } from '../../handlers/lib/credentials-from-env.ts';
import { ServiceUnavailableError } from '../../handlers/lib/errors.ts';
import type { PartitionRead } from '../../handlers/lib/group-cache.ts';
import { isUnavailable, type PlantsClient, type PlantsQuery } from '../../handlers/lib/plants.ts';

// The SDK client's settings in dynamodb-client.ts, and the SDK's own keep-alive agent defaults.
const MAX_ATTEMPTS = 3;
const CONNECTION_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1000;
const AGENT = { keepAlive: true, maxSockets: 50 };

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

/**
 * DynamoDB's endpoint as the SDK's rules resolve it in the `aws` partition, FIPS and dual-stack
 * included. Other partitions (China, GovCloud, ISO) are refused rather than guessed.
 */
export function dynamodbEndpoint(region: string, env: NodeJS.ProcessEnv): string {
  const fips = env.AWS_USE_FIPS_ENDPOINT === 'true';
  const dualStack = env.AWS_USE_DUALSTACK_ENDPOINT === 'true';
  if (!/^(us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d+$/.test(region) || region.startsWith('us-gov-')) {
    throw new Error(`DynamoDB endpoint for region "${region}" is not known to this client: set the endpoint`);
  }
  return `https://dynamodb${fips ? '-fips' : ''}.${region}.${dualStack ? 'api.aws' : 'amazonaws.com'}`;
}

/**
 * Where requests go: the endpoint given, else DynamoDB's in the Region. Refused at init, with a reason,
 * where the SDK would resolve something this client does not (another partition; FIPS or dual-stack
 * with a custom endpoint, which the SDK also refuses). No Region: refused at the first call, as the SDK.
 */
function endpointOf(endpoint: string | undefined, region: string | undefined, env: NodeJS.ProcessEnv) {
  const asked = ['AWS_USE_FIPS_ENDPOINT', 'AWS_USE_DUALSTACK_ENDPOINT'].filter((name) => env[name] === 'true');
  if (endpoint && asked.length > 0) throw new Error(`${asked.join(' and ')} cannot apply to a custom endpoint`);
  if (endpoint) return new URL(endpoint);
  return region ? new URL(dynamodbEndpoint(region, env)) : undefined;
}

export function createPlantsClient(endpoint: string | undefined): PlantsClient {
  const region = process.env.AWS_REGION;
  const resolved = endpointOf(endpoint, region, process.env);
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
  const agents = { 'http:': new HttpAgent(AGENT), 'https:': new HttpsAgent(AGENT) };
  const retries = new StandardRetryStrategy(MAX_ATTEMPTS);

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
    const { status, requestId, text } = await post(url, signed.headers, body, agents, signal);
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

/** One POST with the SDK's node-http-handler timeouts: connecting (TCP) and waiting on the socket. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  agents: { 'http:': HttpAgent; 'https:': HttpsAgent },
  signal: AbortSignal | undefined,
): Promise<{ status: number; requestId: string | undefined; text: string }> {
  const https = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const options = {
      method: 'POST',
      hostname: url.hostname,
      port: url.port,
      path: url.pathname,
      headers,
      agent: https ? agents['https:'] : agents['http:'],
      ...(signal && { signal }),
    };
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const requestId = response.headers['x-amzn-requestid'];
        const text = Buffer.concat(chunks).toString();
        resolve({
          status: response.statusCode ?? 0,
          requestId: typeof requestId === 'string' ? requestId : undefined,
          text,
        });
      });
    };
    const request = https ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
    const timeout = (what: string, ms: number) =>
      request.destroy(Object.assign(new Error(`${what} timed out after ${ms} ms`), { name: 'TimeoutError' }));
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => timeout('Connection', CONNECTION_TIMEOUT_MS), CONNECTION_TIMEOUT_MS);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    request.setTimeout(REQUEST_TIMEOUT_MS, () => timeout('Request', REQUEST_TIMEOUT_MS));
    request.on('error', reject);
    request.end(body);
  });
}
