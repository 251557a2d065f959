// Faults that test/handlers/list-plants/faults.test.ts does not cover: the JWKS endpoint refusing connections,
// slower than the fetch timeout, or serving a broken or oversized key set at cold start; DynamoDB refusing
// connections or answering later than the SDK's request timeout, alone and under concurrency.
// Each answers 503 with the Error body within a stated bound, far below the 15 s function
// timeout, and the service recovers by itself when the fault clears.
//
// Unhandled rejections: jest gives each test file a copy of `process`, so a listener added
// here would never fire; jest-circus listens on the real process and fails the running test
// instead. So every test waits until the late answers of its fault have arrived, while it runs.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_JWKS_BYTES } from '../../handlers/lib/auth/jwks-fetcher.ts';
import { jwksOf, type TlsIdentity } from '../../local/issuer/issuer.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { FAULT_DEADLINE_MS, FAULT_JWKS_TIMEOUT_MS } from '../helpers/function-env.ts';
import { type Reply, type Service, startService } from '../helpers/service.ts';
import { startTcpFront, type TcpFront } from './helpers/tcp-front.ts';

/**
 * What ends each fault is the code's own bound, which the request record names as the 503's cause:
 * the JWKS fetch failing or its key set refused, DynamoDB refusing, the SDK's request timeout or the
 * page's deadline (this test's own bounds, test/helpers/function-env.ts). How long that took on this
 * machine is not the test's to judge.
 */
const JWKS_CAUSES =
  /^Error: (Failed to fetch https:\/\/localhost:\d+\/\.well-known\/jwks\.json|JWKS could not be parsed|JWKS keys should be)/;
const DYNAMODB_CAUSES = /ECONNREFUSED|TimeoutError|DeadlineExceeded/;
/** Twice the SDK's attempt timeout (a quarter of the deadline), twice the JWKS fetch's. */
const SLOWER_THAN_SDK_MS = FAULT_DEADLINE_MS / 2;
const SLOWER_THAN_JWKS_FETCH_MS = FAULT_JWKS_TIMEOUT_MS * 2;

let service: Service;
let dynamo: TcpFront;
let jwks: TcpFront;
let brokenJwks: Server;
let brokenBody = '';

beforeAll(async () => {
  // One at a time, so each is assigned (and closed by afterAll) even when a later one fails.
  dynamo = await startTcpFront();
  jwks = await startTcpFront();
  brokenJwks = await startBrokenJwksServer();
  service = await startService({
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamo.port}`,
    DYNAMODB_DEADLINE_MS: String(FAULT_DEADLINE_MS),
    AUTH_JWKS_TIMEOUT_MS: String(FAULT_JWKS_TIMEOUT_MS),
    AUTH_JWKS_URI: `https://localhost:${jwks.port}/.well-known/jwks.json`,
  });
  dynamo.retarget(Number(new URL(service.dynamo.endpoint).port));
  jwks.retarget(issuerPort());
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Fern' }]);
});
afterAll(async () => {
  await new Promise<void>((resolve) => (brokenJwks ? brokenJwks.close(() => resolve()) : resolve()));
  await Promise.all([dynamo?.close(), jwks?.close()]);
  await service?.stop();
});

/** Answers 200 with a body that is not a key set, on the run's one TLS identity. */
async function startBrokenJwksServer(): Promise<Server> {
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  const server = createServer(tls, (_, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(brokenBody);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function call(): Promise<Reply> {
  const event = httpApiEvent({ headers: { authorization: `Bearer ${service.token('alice')}` } });
  return service.call(event);
}
const issuerPort = () => Number(new URL(service.issuer.url).port);
const unavailable = { status: 503, body: { error: 503, message: 'Service temporarily unavailable, retry later' } };
const fern = { status: 200, body: [{ name: 'Fern' }] };

async function expectUnavailableEndedBy(causes: RegExp) {
  service.logs.clear();
  const reply = await call();
  expect(reply).toMatchObject({ ...unavailable, headers: { 'retry-after': '1' } });
  // The operator sees why; the caller does not.
  const errors = service.logs.entries().filter((entry) => entry.level === 'ERROR');
  expect(errors).toHaveLength(1);
  const cause = (errors[0]?.error as { cause?: { name?: string; code?: string } } | undefined)?.cause;
  expect(`${cause?.name}: ${(cause as { message?: string } | undefined)?.message}`).toMatch(causes);
}

describe('JWKS faults at cold start (nothing cached yet)', () => {
  it('answers 503 while the JWKS host refuses connections', async () => {
    await jwks.refuse();
    await expectUnavailableEndedBy(JWKS_CAUSES);
    await jwks.accept();
  });

  it('answers 503 while the JWKS answers later than the fetch timeout', async () => {
    jwks.delayMs = SLOWER_THAN_JWKS_FETCH_MS;
    await expectUnavailableEndedBy(JWKS_CAUSES);
    jwks.delayMs = 0;
    jwks.dropConnections(); // no late answer arrives in the next test
  });

  it.each([
    ['a JSON body that is not a key set', '{"keys":7}'],
    ['an HTML page', '<html><body>Bad gateway</body></html>'],
    ['an empty body', ''],
  ])('answers 503 while the JWKS endpoint serves %s', async (_what, body) => {
    brokenBody = body;
    jwks.retarget((brokenJwks.address() as AddressInfo).port);
    await expectUnavailableEndedBy(JWKS_CAUSES);
    jwks.retarget(issuerPort());
  });

  // Copies of the issuer's key under other kids, as a key set with many keys is.
  const keySetOf = (bytes: number) => {
    const [jwk] = jwksOf(...service.issuer.keys).keys;
    const size = JSON.stringify(jwk).length + 1;
    const copies = Array.from({ length: Math.floor(bytes / size) - 1 }, (_, i) => ({ ...jwk, kid: `copy-${i}` }));
    return JSON.stringify({ keys: [jwk, ...copies] });
  };

  it(`answers 503 while the JWKS endpoint serves 8 MB of keys, reading no more than ${MAX_JWKS_BYTES} bytes`, async () => {
    brokenBody = keySetOf(8 * 2 ** 20);
    jwks.retarget((brokenJwks.address() as AddressInfo).port);
    await expectUnavailableEndedBy(
      new RegExp(`^Error: Failed to fetch \\S+: Key set answer over ${MAX_JWKS_BYTES} bytes`),
    );
  });

  it('verifies with a key set just under the bound', async () => {
    brokenBody = keySetOf(MAX_JWKS_BYTES - 4096);
    expect(await call()).toMatchObject(fern);
    jwks.retarget(issuerPort());
  });

  it('recovers by itself once the JWKS is back', async () => {
    expect(await call()).toMatchObject(fern);
  });
});

describe('DynamoDB faults', () => {
  it('answers 503 while DynamoDB refuses connections, then recovers', async () => {
    await dynamo.refuse();
    await expectUnavailableEndedBy(DYNAMODB_CAUSES);
    await dynamo.accept();
    expect(await call()).toMatchObject(fern);
  });

  it('answers 503 while DynamoDB answers later than the SDK request timeout, then recovers', async () => {
    dynamo.delayMs = SLOWER_THAN_SDK_MS;
    await expectUnavailableEndedBy(DYNAMODB_CAUSES);
    // Recovery on the same front, its connections as the slow answers left them: a client that
    // pooled a timed-out socket would read a late answer here.
    dynamo.delayMs = 0;
    expect(await call()).toMatchObject(fern);
  });

  it('answers 503 to 20 concurrent callers while DynamoDB is slow', async () => {
    dynamo.delayMs = SLOWER_THAN_SDK_MS;
    service.logs.clear();
    const replies = await Promise.all(Array.from({ length: 20 }, () => call()));
    for (const reply of replies) expect(reply).toMatchObject(unavailable);
    const causes = service.logs.entries().filter((entry) => entry.level === 'ERROR');
    expect(causes).toHaveLength(replies.length);
    // Recovery on the same front, its connections as the slow answers left them: a client that
    // pooled a timed-out socket would read a late answer here.
    dynamo.delayMs = 0;
    expect(await call()).toMatchObject(fern);
  });
});
