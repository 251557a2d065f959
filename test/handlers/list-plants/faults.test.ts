// Outages of the issuer's JWKS and of DynamoDB answer 503 (or a generic 500), ended by the code's own
// bounds (the JWKS fetch's, the SDK's attempts, the deadline this test sets), and the service recovers
// by itself when the fault clears. How long that took on this machine is not the test's to judge.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Fault, type FaultyDynamo, startServiceWithFaultyDynamo } from '../../helpers/faulty-dynamo.ts';
import { FAULT_DEADLINE_MS } from '../../helpers/function-env.ts';
import type { Reply, Service } from '../../helpers/service.ts';

/** What ends each fault's request, as the 503's logged cause says it (`name: message`). */
const ENDED_BY: [Fault, RegExp][] = [
  ['throttled', /^ProvisionedThroughputExceededException:/],
  ['throttling', /^ThrottlingException:/],
  ['internal', /^InternalServerError:/],
  ['reset', /socket hang up/],
  // The SDK's third attempt timing out, or the deadline if that attempt started late on a busy machine.
  ['hang', /^(TimeoutError|DeadlineExceeded):/],
];

let service: Service;
let dynamo: FaultyDynamo;

// 5xx causes are logged for the operator (and kept out of responses).
const errorLogs = () => service.logs.entries().filter((entry) => entry.level === 'ERROR');

let stop: () => Promise<void>;

beforeAll(async () => {
  ({ service, dynamo, stop } = await startServiceWithFaultyDynamo(
    [{ owner: 'alice', id: 'p1', name: 'Fern' }],
    { issuerDownAtInit: true },
    { DYNAMODB_DEADLINE_MS: String(FAULT_DEADLINE_MS) },
  ));
});
afterAll(async () => {
  await stop?.();
});

async function call(): Promise<Reply> {
  const event = httpApiEvent({ headers: { authorization: `Bearer ${service.token('alice')}` } });
  service.logs.clear();
  return service.call(event);
}
const causeOf = (entry: Record<string, unknown> | undefined) => {
  const cause = (entry?.error as { cause?: { name?: string; message?: string } } | undefined)?.cause;
  return `${cause?.name}: ${cause?.message}`;
};

const unavailable = { error: 503, message: 'Service temporarily unavailable, retry later' };

describe('issuer JWKS outage', () => {
  it('answers 503 at cold start while the JWKS cannot be fetched, then recovers', async () => {
    service.issuer.available = false;
    const down = await call();
    expect(down).toMatchObject({ status: 503, body: unavailable, headers: { 'retry-after': '1' } });
    expect(causeOf(errorLogs()[0])).toMatch(/^Error: Failed to fetch/);

    service.issuer.available = true;
    const up = await call();
    expect(up).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
  });

  it('keeps serving from the cached JWKS while the issuer is down', async () => {
    service.issuer.available = false;
    const before = service.issuer.requests;
    const reply = await call();
    expect(reply.status).toBe(200);
    expect(service.issuer.requests).toBe(before);
    service.issuer.available = true;
  });
});

describe('DynamoDB faults', () => {
  it.each(ENDED_BY)(
    'answers 503 with Retry-After when DynamoDB is %s, after three attempts ended by %s, then recovers',
    async (fault, cause) => {
      dynamo.fault = fault;
      const before = dynamo.requests;
      const reply = await call();
      expect(reply).toMatchObject({ status: 503, body: unavailable, headers: { 'retry-after': '1' } });
      expect(dynamo.requests - before).toBe(3); // maxAttempts: the first try and two retries
      expect(errorLogs()).toHaveLength(1);
      expect(causeOf(errorLogs()[0])).toMatch(cause);

      dynamo.fault = 'none';
      const recovered = await call();
      expect(recovered).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
    },
  );

  it('answers a generic 500 to an error that retrying cannot fix, without its text', async () => {
    dynamo.fault = 'validation';
    const reply = await call();
    expect(reply).toMatchObject({ status: 500, body: { error: 500, message: 'Internal server error' } });
    expect(JSON.stringify(reply)).not.toMatch(/ValidationException|dynamodb|at /i);
    expect(JSON.stringify(errorLogs())).toMatch(/ValidationException/);
    dynamo.fault = 'none';
  });
});
