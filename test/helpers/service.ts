// The whole service in this process: a real TLS-served JWKS, dynalite, and the handler itself,
// configured through the environment exactly as the stack configures the function.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';
import { readConfig } from '../../handlers/lib/config.ts';
import { operationOf } from '../../handlers/lib/operations.ts';
import {
  createSigningKey,
  type JwksServer,
  type SigningKey,
  signToken,
  startJwksServer,
  type TlsIdentity,
  trustCertificate,
} from '../../local/issuer/issuer.ts';
import { type Handler, lambdaContext } from '../../local/server/lambda.ts';
import { type LocalDynamo, type PlantItem, putPlants, startDynamo, TEST_REGION } from './dynamo.ts';
import { UNHURRIED_DEADLINE_MS, UNHURRIED_JWKS_TIMEOUT_MS } from './function-env.ts';
import { type CapturedLogs, captureOutput } from './logs.ts';
import { assertMatchesContract, type OperationId } from './openapi.ts';
import { orUndo } from './undo.ts';

export const AUDIENCE = 'plant-store-test';
/** Lambda's longest function timeout, for the context of a healthy-path invocation. */
const UNHURRIED_TIMEOUT_SECONDS = 900;
export const TABLE = 'plants-test';

/** The claims a Cognito user pool puts in an access token from InitiateAuth (besides iss, sub, iat, exp). */
export function cognitoAccessClaims(sub: string, clientId: string): Record<string, unknown> {
  return {
    client_id: clientId,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    username: sub,
    auth_time: Math.floor(Date.now() / 1000) - 5,
    origin_jti: randomUUID(),
    event_id: randomUUID(),
    jti: randomUUID(),
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The invocation result as the handler returned it, before parsing. */
  result: APIGatewayProxyResult;
}

export interface Service {
  issuer: JwksServer;
  key: SigningKey;
  dynamo: LocalDynamo;
  /** What the function wrote (JSON log lines and EMF metrics), kept out of the test output. */
  logs: CapturedLogs;
  /**
   * A valid access token for `sub`, with `claims` overriding the defaults: shaped as a Cognito user
   * pool's (client_id, token_use, scope, username, no aud) when the service is configured for
   * Cognito, as a generic OIDC issuer's (aud) otherwise.
   */
  token(sub: string, claims?: Record<string, unknown>): string;
  /** What token() signs, for a test that signs or forges it another way. */
  claims(sub: string, overrides?: Record<string, unknown>): Record<string, unknown>;
  /** The handler itself, for an HTTP front (local/server/app.ts) in front of it. */
  handler: Handler;
  /** Invokes the handler, checks the response against openapi.yaml, and parses it. */
  call(event: APIGatewayProxyEvent | APIGatewayProxyEventV2): Promise<Reply>;
  seed(items: PlantItem[]): Promise<void>;
  stop(): Promise<void>;
}

// One TLS identity for the whole run (made in test/global-setup.ts): jest runs test files one
// after another in the same worker, and there a second setDefaultCACertificates() with another
// certificate did not take effect.
function processTlsIdentity(): TlsIdentity {
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  trustCertificate(tls.cert);
  return tls;
}

export interface StartOptions {
  /**
   * The issuer answers 503 while the handler loads: the function prefetches the JWKS at init, so
   * an outage "at cold start" must already be there then (the test makes it available again).
   */
  issuerDownAtInit?: boolean;
}

/** The function's environment against a local store and issuer, as every suite starts it. */
export function serviceEnvironment(dynamoEndpoint: string, issuerUrl: string): Record<string, string> {
  return {
    AWS_REGION: TEST_REGION,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    PLANTS_TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    DYNAMODB_DEADLINE_MS: String(UNHURRIED_DEADLINE_MS),
    AUTH_JWKS_TIMEOUT_MS: String(UNHURRIED_JWKS_TIMEOUT_MS),
    AUTH_ISSUER: issuerUrl,
    AUTH_AUDIENCE: AUDIENCE,
  };
}

export async function startService(
  env: Record<string, string> = {},
  startStore: (table: string) => Promise<LocalDynamo> = startDynamo,
  { issuerDownAtInit = false }: StartOptions = {},
): Promise<Service> {
  const tls = processTlsIdentity();
  const key = createSigningKey();
  const logs = captureOutput();
  const issuer = await orUndo(startJwksServer(tls, [key]), () => logs.restore());
  const dynamo = await orUndo(
    startStore(TABLE),
    () => issuer.close(),
    () => logs.restore(),
  );

  Object.assign(process.env, {
    ...serviceEnvironment(dynamo.endpoint, issuer.url),
    AUTH_TOKEN_USE: 'access',
    // As the Lambda runtime sets it, so Powertools reports the first invocation as a cold start.
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AUTH_JWKS_URI: issuer.jwksUri,
    AUTH_REQUIRED_SCOPE: '',
    MAX_PAGE_SIZE: '',
    ...env,
  });
  issuer.available = !issuerDownAtInit;
  const { handler } = await orUndo(
    import('../../handlers/list-plants.ts'),
    () => dynamo.close(),
    () => issuer.close(),
    () => logs.restore(),
  );
  const { auth } = readConfig();

  const now = () => Math.floor(Date.now() / 1000);
  const shape = (sub: string) =>
    auth.issuerType === 'cognito'
      ? cognitoAccessClaims(sub, auth.audience[0] ?? '')
      : { aud: AUDIENCE, token_use: 'access' };
  const claimsOf = (sub: string, overrides: Record<string, unknown>) => ({
    iss: auth.issuer,
    sub,
    ...shape(sub),
    iat: now(),
    exp: now() + 600,
    ...overrides,
  });
  return {
    issuer,
    key,
    dynamo,
    logs,
    handler: handler as Handler,
    claims: (sub, overrides = {}) => claimsOf(sub, overrides),
    token: (sub, overrides = {}) => signToken(key, claimsOf(sub, overrides)),
    async call(event) {
      // Lambda's longest timeout: no healthy request meets the function's early-timeout guard here.
      const result = (await handler(
        event,
        lambdaContext('lambda-req-1', UNHURRIED_TIMEOUT_SECONDS),
      )) as APIGatewayProxyResult;
      // Checked as the operation the event was routed to (an event of no route is a wiring fault's 500).
      assertMatchesContract(result, operationOf(event)?.operationId as OperationId | undefined);
      return {
        status: result.statusCode,
        headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
        body: JSON.parse(result.body),
        result,
      };
    },
    seed: (items) => putPlants(dynamo.client, TABLE, items),
    async stop() {
      logs.restore();
      await issuer.close();
      await dynamo.close();
    },
  };
}
