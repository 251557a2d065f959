// DynamoDB's connection opened before the SDK loads: the host is the one the SDK's own rules name,
// the SDK's first request takes the open connection (no second handshake), and a request for any
// other host never gets it.

import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { createServer, type Server } from 'node:tls';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPlantsClient } from '../../../handlers/lib/dynamodb-client.ts';
import { connectDynamodb, dynamodbUrl } from '../../../handlers/lib/dynamodb-connection.ts';
import { type TlsIdentity, trustCertificate } from '../../../local/issuer/issuer.ts';
import { type LocalDynamo, startDynamo } from '../../../local/store/in-process.ts';
import { localDynamoConfig } from '../../helpers/function-env.ts';

const TABLE = 'plants-connection';
let dynamo: LocalDynamo;
/** A TLS front for dynalite, as DynamoDB is https only: counts the connections it accepts. */
let front: Server;
let connections = 0;
const sockets = new Set<Socket>();
let endpoint: string;

beforeAll(async () => {
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  trustCertificate(tls.cert);
  // The function's credentials come from its environment, as on Lambda.
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  dynamo = await startDynamo(TABLE);
  const target = new URL(dynamo.endpoint);
  front = createServer({ key: tls.key, cert: tls.cert }, (socket) => {
    connections++;
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  endpoint = `https://localhost:${(front.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => front?.close(resolve));
  await dynamo?.close();
});

const query = {
  TableName: TABLE,
  KeyConditionExpression: '#owner = :owner',
  ExpressionAttributeNames: { '#owner': 'owner' },
  ExpressionAttributeValues: { ':owner': 'nobody' },
  Limit: 1,
};

/** connectDynamodb's agent, once the front has accepted the connection it opened. */
async function preconnected(config: ReturnType<typeof localDynamoConfig>) {
  const before = connections;
  const agent = connectDynamodb(config);
  await new Promise<void>(function waitForIt(resolve) {
    if (connections > before) resolve();
    else setTimeout(waitForIt, 5, resolve);
  });
  return agent;
}

describe('connectDynamodb', () => {
  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])("connects where the SDK's rules send (FIPS %s, dual-stack %s)", async (useFipsEndpoint, useDualstackEndpoint) => {
    const aws = { region: 'eu-west-1', useFipsEndpoint, useDualstackEndpoint };
    const sdk = new DynamoDBClient({ region: aws.region, useFipsEndpoint, useDualstackEndpoint });
    const resolved = sdk.config.endpointProvider({
      Region: aws.region,
      UseFIPS: useFipsEndpoint,
      UseDualStack: useDualstackEndpoint,
    });
    expect(new URL(dynamodbUrl(aws.region, aws)).href).toBe(resolved.url.href);
  });

  it("hands its open connection to the SDK's first request: one TLS handshake in all", async () => {
    const config = localDynamoConfig(endpoint);
    const before = connections;
    const agent = await preconnected(config);
    const client = createPlantsClient(config, agent);

    await client.query(query);
    await client.query(query);

    expect(connections - before).toBe(1);
    agent?.destroy();
  });

  it('opens none for a plain-http endpoint (loopback emulators)', () => {
    expect(connectDynamodb(localDynamoConfig(dynamo.endpoint))).toBeUndefined();
  });

  it('never gives its connection to a request for another host', async () => {
    const before = connections;
    // Opened to localhost; the SDK sends to 127.0.0.1: the same server, another name.
    const agent = await preconnected(localDynamoConfig(endpoint));
    const client = createPlantsClient(localDynamoConfig(endpoint.replace('localhost', '127.0.0.1')), agent);

    await client.query(query);

    expect(connections - before).toBe(2);
    agent?.destroy();
  });
});
