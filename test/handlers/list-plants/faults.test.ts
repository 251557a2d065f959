// Outages of the issuer's JWKS and of DynamoDB answer 503 (or a generic 500) well inside the
// function timeout (15 s), and the service recovers by itself when the fault clears.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FUNCTION_TIMEOUT_SECONDS } from '../../../infra/function-runtime.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Fault, type FaultyDynamo, startServiceWithFaultyDynamo } from '../../helpers/faulty-dynamo.ts';
import type { Reply, Service } from '../../helpers/service.ts';

/** Before the function's timeout, where Lambda would answer 500: the code's own bounds end it sooner. */
const ANSWER_WITHIN_MS = FUNCTION_TIMEOUT_SECONDS * 1000;

let service: Service;
let dynamo: FaultyDynamo;

// 5xx causes are logged for the operator (and kept out of responses).
const errorLogs = () => service.logs.entries().filter((entry) => entry.level === 'ERROR');

let stop: () => Promise<void>;

beforeAll(async () => {
  ({ service, dynamo, stop } = await startServiceWithFaultyDynamo([{ owner: 'alice', id: 'p1', name: 'Fern' }], {
    issuerDownAtInit: true,
  }));
});
afterAll(async () => {
  await stop?.();
});

async function call(): Promise<[Reply, number]> {
  const event = httpApiEvent({ headers: { authorization: `Bearer ${service.token('alice')}` } });
  service.logs.clear();
  const start = performance.now();
  const reply = await service.call(event);
  return [reply, performance.now() - start];
}

const unavailable = { error: 503, message: 'Service temporarily unavailable, retry later' };

describe('issuer JWKS outage', () => {
  it('answers 503 at cold start while the JWKS cannot be fetched, then recovers', async () => {
    service.issuer.available = false;
    const [down, elapsed] = await call();
    expect(down).toMatchObject({ status: 503, body: unavailable, headers: { 'retry-after': '1' } });
    expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);

    service.issuer.available = true;
    const [up] = await call();
    expect(up).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
  });

  it('keeps serving from the cached JWKS while the issuer is down', async () => {
    service.issuer.available = false;
    const before = service.issuer.requests;
    const [reply] = await call();
    expect(reply.status).toBe(200);
    expect(service.issuer.requests).toBe(before);
    service.issuer.available = true;
  });
});

describe('DynamoDB faults', () => {
  it.each<Fault>(['throttled', 'throttling', 'internal', 'reset', 'hang'])(
    'answers 503 with Retry-After when DynamoDB is %s, after bounded retries, then recovers',
    async (fault) => {
      dynamo.fault = fault;
      const before = dynamo.requests;
      const [reply, elapsed] = await call();
      expect(reply).toMatchObject({ status: 503, body: unavailable, headers: { 'retry-after': '1' } });
      expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
      expect(dynamo.requests - before).toBe(3); // maxAttempts: the first try and two retries
      expect(errorLogs()).toHaveLength(1);

      dynamo.fault = 'none';
      const [recovered] = await call();
      expect(recovered).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
    },
  );

  it('answers a generic 500 to an error that retrying cannot fix, without its text', async () => {
    dynamo.fault = 'validation';
    const [reply] = await call();
    expect(reply).toMatchObject({ status: 500, body: { error: 500, message: 'Internal server error' } });
    expect(JSON.stringify(reply)).not.toMatch(/ValidationException|dynamodb|at /i);
    expect(JSON.stringify(errorLogs())).toMatch(/ValidationException/);
    dynamo.fault = 'none';
  });
});
