// One deadline per request, through the bundle that deploys: whatever DynamoDB's endpoint (or
// something between) does, a caller in 12 groups with the group cache off gets the contract's 503
// with Retry-After, ended by the code's own bounds (plants.ts's deadline, the SDK's attempts), and
// the function serves again once the fault clears.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DYNAMODB_DEADLINE_MS, MAX_QUERIES_PER_PAGE } from '../../../handlers/lib/plants.ts';
import { createSigningKey, type JwksServer, startJwksServer, type TlsIdentity } from '../../../local/issuer/issuer.ts';
import { mintToken } from '../../../local/issuer/tokens.ts';
import { type BundledFunction, buildBundle, startBundledFunction } from '../../helpers/bundle.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Fault, type FaultyDynamo, startFaultyDynamo } from '../../helpers/faulty-dynamo.ts';
import { removeTempDirs, tempDir } from '../../helpers/local-server.ts';
import { AUDIENCE, serviceEnvironment, TABLE } from '../../helpers/service.ts';

const GROUPS = Array.from({ length: 12 }, (_, i) => `team-${i}`);
/** The function timeout: an outer bound only, far above the deadline the code enforces. */
const FUNCTION_TIMEOUT_MS = 15_000;

/** What may end each fault's request: the deadline, or the SDK's last attempt's own error. */
const ENDED_BY: [Fault, string[]][] = [
  ['trickle', ['DeadlineExceeded']],
  ['stall', ['DeadlineExceeded']],
  ['hang-twice', ['DeadlineExceeded']],
  ['throttled', ['DeadlineExceeded', 'ProvisionedThroughputExceededException']],
  ['proxy-502', ['DeadlineExceeded', 'SyntaxError']],
  ['endless', ['ResponseTooLarge']],
];

let dynamo: LocalDynamo;
let faulty: FaultyDynamo;
let issuer: JwksServer;
let fn: BundledFunction;
let token: string;

beforeAll(async () => {
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  const caFile = join(tempDir('deadline'), 'issuer-cert.pem');
  writeFileSync(caFile, tls.cert);
  const key = createSigningKey();
  issuer = await startJwksServer(tls, [key]);
  dynamo = await startDynamo(TABLE);
  faulty = await startFaultyDynamo();
  faulty.target = dynamo.endpoint;
  await putPlants(dynamo.client, TABLE, [
    { owner: 'alice', id: 'p1', name: 'Fern' },
    ...GROUPS.map((group) => ({ group, id: 'p1', name: `${group}'s fern` })),
  ]);
  token = mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: 'alice', ttl: 600, groups: GROUPS });
  fn = startBundledFunction(await buildBundle(), {
    ...serviceEnvironment(faulty.endpoint, issuer.url),
    NODE_EXTRA_CA_CERTS: caFile,
    AUTH_GROUPS_CLAIM: 'cognito:groups',
    GROUP_CACHE_TTL_SECONDS: '0',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
}, 60_000);
afterAll(async () => {
  await fn?.stop();
  await Promise.all([faulty?.close(), issuer?.close(), dynamo?.close()]);
  removeTempDirs();
});

const call = async () => {
  const started = performance.now();
  const result = await fn.invoke(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));
  return { result, ms: performance.now() - started };
};

describe("one deadline for all of a request's DynamoDB work", () => {
  it('reads a caller in 12 groups a Query a partition when nothing fails', async () => {
    const { result } = await call();
    expect(result.statusCode).toBe(200);
    // One plant a partition, up to the page's Query cap.
    expect(JSON.parse(result.body)).toHaveLength(Math.min(GROUPS.length + 1, MAX_QUERIES_PER_PAGE));
  });

  it.each(ENDED_BY)('DynamoDB %s: 503 with Retry-After, ended by %j; then serves again', async (fault, causes) => {
    faulty.fault = fault;
    const before = fn.records().length;
    const { result, ms } = await call();
    faulty.fault = 'none';

    expect(result.statusCode).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(result.body)).toEqual({ error: 503, message: 'Service temporarily unavailable, retry later' });
    // The cause the request record keeps: what ended the request.
    const [record] = fn.records().slice(before);
    const error = record?.error as { cause?: { name?: string; message?: string } };
    expect(causes).toContain(error?.cause?.name);
    if (error?.cause?.name === 'DeadlineExceeded') expect(error.cause.message).toContain(`${DYNAMODB_DEADLINE_MS} ms`);
    expect(ms).toBeLessThan(FUNCTION_TIMEOUT_MS);

    expect((await call()).result.statusCode).toBe(200);
  });
});
