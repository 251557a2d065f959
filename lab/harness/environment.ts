// The real components the function talks to: a TLS-served JWKS with an RS256 key, dynalite with
// the plants table behind a TLS front (DynamoDB is HTTPS on AWS), a sink for X-Ray segments, and
// the environment a function process is configured with.

import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import {
  functionEnvironment,
  MAX_DYNAMODB_DEADLINE_MS,
  MAX_JWKS_TIMEOUT_MS,
  type RequestLogMode,
} from '../../handlers/lib/environment.ts';
import { functionNodeOptions } from '../../infra/function-runtime.ts';
import { DEFAULT_TELEMETRY, telemetryEnvironment } from '../../infra/telemetry.ts';
import {
  createSigningKey,
  createTlsIdentity,
  type JwksServer,
  signToken,
  startJwksServer,
} from '../../local/issuer/issuer.ts';
import { mintToken } from '../../local/issuer/tokens.ts';
import { type LocalDynamo, startDynamo, TEST_REGION } from '../../test/helpers/dynamo.ts';
import { httpApiEvent } from '../../test/helpers/events.ts';
import { AUDIENCE, CALLER, TABLE, tmpDir } from '../config.ts';
import { type Front, startDelayProxy, startTlsFront } from './network.ts';

export interface BenchEnvironment {
  issuer: JwksServer;
  dynamo: LocalDynamo;
  /** dynalite over HTTPS, as a function process reaches it. */
  dynamoTls: Front;
  /** The API Gateway event of the caller's `GET /plants`, with a valid bearer token. */
  event: ReturnType<typeof httpApiEvent>;
  /** The caller's `GET /plants?<query>` with a token that also carries `claims` (e.g. groups). */
  eventWith(claims: Record<string, unknown>, query?: string): ReturnType<typeof httpApiEvent>;
  /** Environment of a function process; by default it reaches dynalite and the JWKS directly. */
  functionEnv(options?: FunctionEnvOptions): NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export interface FunctionEnvOptions {
  /** Another DynamoDB endpoint (a delaying proxy, the capacity proxy). */
  dynamodb?: string;
  /** Another URL for the issuer's JWKS (a delaying proxy). */
  jwksUri?: string;
  /** Run as on Lambda with active tracing: Powertools loads the Tracer, segments go to the sink. */
  tracing?: boolean;
  /** Which requests write a record (default: as the default stack deploys it). */
  requestLog?: RequestLogMode;
  /** The claim the function reads groups from (default: none, as for an OIDC issuer). */
  groupsClaim?: string;
  /** The version serving, as Lambda sets it (default: none, read as `$LATEST`). */
  version?: string;
  /** The group cache's time to live in seconds, 0 off (default: the function's). */
  groupCacheSeconds?: number;
}

export async function startEnvironment(): Promise<BenchEnvironment> {
  const tls = await createTlsIdentity();
  // Child processes trust the issuer the way a developer's shell would: NODE_EXTRA_CA_CERTS.
  const certFile = `${tmpDir}issuer-cert.pem`;
  writeFileSync(certFile, tls.cert);
  const key = createSigningKey();
  const issuer = await startJwksServer(tls, [key]);
  const dynamo = await startDynamo(TABLE);
  const dynamoTls = await startTlsFront(tls, dynamo.endpoint);
  // What the X-Ray daemon would receive: UDP datagrams, read and dropped.
  const xraySink = createSocket('udp4').on('message', () => {});
  await new Promise<void>((resolve) => xraySink.bind(0, '127.0.0.1', resolve));
  const event = httpApiEvent({
    headers: {
      authorization: `Bearer ${mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: CALLER, ttl: 3600 })}`,
    },
  });

  return {
    issuer,
    dynamo,
    dynamoTls,
    event,
    eventWith: (claims, query = '') => {
      const now = Math.floor(Date.now() / 1000);
      const base = { iss: issuer.url, aud: AUDIENCE, sub: CALLER, token_use: 'access', iat: now, exp: now + 3600 };
      return httpApiEvent({ query, headers: { authorization: `Bearer ${signToken(key, { ...base, ...claims })}` } });
    },
    functionEnv: ({
      dynamodb = dynamoTls.url,
      jwksUri,
      tracing = false,
      requestLog = DEFAULT_TELEMETRY.requestLog,
      groupsClaim,
      version,
      groupCacheSeconds,
    }: FunctionEnvOptions = {}) => ({
      PATH: process.env.PATH,
      // The function's telemetry as the stack sets it.
      ...telemetryEnvironment({ ...DEFAULT_TELEMETRY, requestLog, tracing }),
      // As the default stack runs the function (no source maps), and as Lambda reports a cold start.
      ...functionNodeOptions(false),
      NODE_EXTRA_CA_CERTS: certFile,
      AWS_REGION: TEST_REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      // The longest DynamoDB deadline and JWKS timeout: what is timed is the healthy path, which no
      // bound ends on a fast machine, and on a busy one a slow request is timed, not failed.
      ...functionEnvironment({
        tableName: TABLE,
        dynamodbEndpoint: dynamodb,
        dynamodbDeadlineMs: MAX_DYNAMODB_DEADLINE_MS,
        auth: {
          issuer: issuer.url,
          jwksUri,
          jwksTimeoutMs: MAX_JWKS_TIMEOUT_MS,
          audience: [AUDIENCE],
          tokenUse: 'access',
          groupsClaim,
        },
        telemetry: { initializationType: 'on-demand', version },
        groupCache: { ttlSeconds: groupCacheSeconds },
      }),
      BENCH_CALLER: CALLER,
      ...(tracing && {
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
        LAMBDA_TASK_ROOT: tmpDir,
        AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${xraySink.address().port}`,
        // function-process.mjs sets _X_AMZN_TRACE_ID per invocation, as the Lambda runtime does.
        BENCH_TRACE: '1',
      }),
    }),
    async stop() {
      await new Promise<void>((resolve) => xraySink.close(() => resolve()));
      await dynamoTls.close();
      await issuer.close();
      await dynamo.close();
    },
  };
}

export { plantsOf } from './shapes.ts';

/**
 * Every connection of the function (the JWKS, DynamoDB) through a proxy that delays each round trip
 * by `rttMs`: `remote` goes into functionEnv(); `close` when the runs are done.
 */
export async function startDelayedNetwork(env: BenchEnvironment, rttMs: number) {
  const jwks = await startDelayProxy(env.issuer.url, rttMs);
  const dynamo = await startDelayProxy(env.dynamoTls.url, rttMs);
  return {
    remote: { dynamodb: dynamo.url, jwksUri: `${jwks.url}/.well-known/jwks.json` },
    close: async () => {
      await jwks.close();
      await dynamo.close();
    },
  };
}
