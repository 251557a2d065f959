// With tracing on, as on Lambda with active tracing, each invocation's DynamoDB Query is an AWS
// subsegment of its trace (service, operation, table), read from the UDP datagrams X-Ray's daemon
// would receive, even with the Tracer's capture of HTTPS requests turned off.

import { createSocket } from 'node:dgram';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSigningKey, type JwksServer, startJwksServer, type TlsIdentity } from '../../../local/issuer/issuer.ts';
import { mintToken } from '../../../local/issuer/tokens.ts';
import { buildBundle, startBundledFunction } from '../../helpers/bundle.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { removeTempDirs, tempDir } from '../../helpers/local-server.ts';
import { AUDIENCE, serviceEnvironment, TABLE } from '../../helpers/service.ts';

interface Subsegment {
  name: string;
  id: string;
  trace_id?: string;
  parent_id?: string;
  namespace?: string;
  aws?: { operation?: string; table_name?: string; retries?: number };
  http?: { response?: { status?: number } };
  subsegments?: Subsegment[];
}

const INVOCATIONS = 3;
const received: Subsegment[] = [];
const daemon = createSocket('udp4');
let dynamo: LocalDynamo;
let issuer: JwksServer;
let dir: string;

beforeAll(async () => {
  daemon.on('message', (message) => received.push(JSON.parse(message.toString().split('\n')[1] ?? '{}')));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  dir = tempDir('tracing');
  writeFileSync(join(dir, 'issuer-cert.pem'), tls.cert);
  const key = createSigningKey();
  issuer = await startJwksServer(tls, [key]);
  dynamo = await startDynamo(TABLE);
  await putPlants(dynamo.client, TABLE, [{ owner: 'alice', id: 'p1', name: 'Fern' }]);
  const fn = startBundledFunction(await buildBundle(), {
    ...serviceEnvironment(dynamo.endpoint, issuer.url),
    NODE_EXTRA_CA_CERTS: join(dir, 'issuer-cert.pem'),
    POWERTOOLS_METRICS_DISABLED: 'true',
    // Where Powertools traces (config.ts's tracingEnabled), and where the X-Ray SDK sends.
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    LAMBDA_TASK_ROOT: dir,
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
    POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false',
  });
  try {
    for (let i = 1; i <= INVOCATIONS; i++) {
      // A fresh sampled trace per invocation, set where the Lambda runtime sets it.
      const id = i.toString(16).padStart(24, '0');
      const traceId = `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${id};Parent=${id.slice(8)};Sampled=1`;
      // A fresh token each time: however long the loop runs, none expires in it.
      const token = mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: 'alice', ttl: 600 });
      const event = httpApiEvent({ headers: { authorization: `Bearer ${token}` } });
      expect((await fn.invoke(event, { _X_AMZN_TRACE_ID: traceId })).statusCode).toBe(200);
    }
  } finally {
    await fn.stop();
  }
});
afterAll(async () => {
  daemon.close();
  await Promise.all([issuer?.close(), dynamo?.close()]);
  removeTempDirs();
});

/** Every subsegment sent, nested ones included, with its parent's id. */
const flatten = (segments: Subsegment[], parent?: Subsegment): Subsegment[] =>
  segments.flatMap((s) => [{ ...s, parent_id: s.parent_id ?? parent?.id }, ...flatten(s.subsegments ?? [], s)]);

describe('tracing the DynamoDB call', () => {
  it("records each invocation's Query as a DynamoDB subsegment under its handler's, HTTPS capture off", () => {
    const all = flatten(received);
    const handlers = all.filter((s) => s.name.startsWith('## '));
    expect(handlers).toHaveLength(INVOCATIONS);
    for (const handler of handlers) {
      const calls = all.filter((s) => s.parent_id === handler.id && s.name === 'DynamoDB');
      expect(calls).toEqual([
        expect.objectContaining({
          namespace: 'aws',
          aws: expect.objectContaining({ operation: 'Query', table_name: TABLE }),
        }),
      ]);
      expect(calls[0]?.http?.response?.status).toBe(200);
    }
  });
});
