// The real components the function talks to: a TLS-served JWKS with an RS256 key, dynalite with
// the plants table, and the environment a function process is configured with.

import { writeFileSync } from 'node:fs';
import { FUNCTION_NODE_OPTIONS } from '../infra/function-runtime.ts';
import { createSigningKey, createTlsIdentity, type JwksServer, startJwksServer } from '../local/issuer.ts';
import { mintToken } from '../local/tokens.ts';
import { type LocalDynamo, type PlantItem, startDynamo, TEST_REGION } from '../test/helpers/dynamo.ts';
import { httpApiEvent } from '../test/helpers/events.ts';
import { AUDIENCE, CALLER, TABLE, tmpDir } from './config.ts';

export interface BenchEnvironment {
  issuer: JwksServer;
  dynamo: LocalDynamo;
  /** The API Gateway event of the caller's `GET /plants`, with a valid bearer token. */
  event: ReturnType<typeof httpApiEvent>;
  /** Environment of a function process reaching DynamoDB at `endpoint`. */
  functionEnv(endpoint?: string): NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export async function startEnvironment(): Promise<BenchEnvironment> {
  const tls = await createTlsIdentity();
  // Child processes trust the issuer the way a developer's shell would: NODE_EXTRA_CA_CERTS.
  const certFile = `${tmpDir}issuer-cert.pem`;
  writeFileSync(certFile, tls.cert);
  const key = createSigningKey();
  const issuer = await startJwksServer(tls, [key]);
  const dynamo = await startDynamo(TABLE);
  const event = httpApiEvent({
    headers: {
      authorization: `Bearer ${mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: CALLER, ttl: 3600 })}`,
    },
  });

  return {
    issuer,
    dynamo,
    event,
    functionEnv: (endpoint = dynamo.endpoint) => ({
      PATH: process.env.PATH,
      // As the stack runs the function (source maps on), and as Lambda reports a cold start.
      NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      NODE_EXTRA_CA_CERTS: certFile,
      AWS_REGION: TEST_REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      PLANTS_TABLE_NAME: TABLE,
      DYNAMODB_ENDPOINT: endpoint,
      AUTH_ISSUER: issuer.url,
      AUTH_AUDIENCE: AUDIENCE,
      AUTH_TOKEN_USE: 'access',
      BENCH_CALLER: CALLER,
    }),
    async stop() {
      await issuer.close();
      await dynamo.close();
    },
  };
}

/** `count` plants of `owner`, shaped like real ones (a name, a tag on most). */
export function plantsOf(owner: string, count: number): PlantItem[] {
  return Array.from({ length: count }, (_, i) => ({
    owner,
    id: `plant-${String(i).padStart(5, '0')}`,
    name: `Monstera deliciosa #${i}`,
    ...(i % 4 !== 0 && { tag: i % 2 === 0 ? 'indoor' : 'outdoor' }),
  }));
}
