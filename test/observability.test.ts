// What the on-call engineer sees: one JSON access line per request, EMF metrics by outcome,
// and never a token.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from './helpers/events.ts';
import { type Service, startService } from './helpers/service.ts';

let service: Service;

beforeAll(async () => {
  // An operator may switch event logging on: the event carries the token, so it must stay off.
  service = await startService({ POWERTOOLS_LOGGER_LOG_EVENT: 'true' }, undefined, { issuerDownAtInit: true });
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Fern' }]);
});
afterAll(() => service?.stop());

const requestLines = () => service.logs.entries().filter((entry) => entry.message === 'request');
const requestMetrics = () => service.logs.entries().filter((entry) => '_aws' in entry && 'Requests' in entry);

async function send(authorization: string | undefined, query = '') {
  service.logs.clear();
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return service.call(httpApiEvent({ query, headers }));
}

describe('logs and metrics', () => {
  it('answers a JWKS outage at cold start with one log line and one unavailable metric', async () => {
    service.issuer.available = false;
    expect((await send(`Bearer ${service.token('alice')}`)).status).toBe(503);
    service.issuer.available = true;

    expect(requestLines()).toEqual([
      expect.objectContaining({ level: 'INFO', status: 503, outcome: 'unavailable', cold_start: true }),
    ]);
    expect(requestMetrics()).toEqual([expect.objectContaining({ outcome: 'unavailable', Requests: 1 })]);
    expect(service.logs.entries()).toContainEqual(
      expect.objectContaining({ level: 'ERROR', message: 'request failed' }),
    );
    expect(service.logs.entries()).toContainEqual(expect.objectContaining({ ColdStart: 1 }));
  });

  it('writes one INFO line per request with the fields operators search by', async () => {
    await send(`Bearer ${service.token('alice')}`);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        level: 'INFO',
        service: 'plant-store',
        cold_start: false,
        function_request_id: 'lambda-req-1',
        apigw_request_id: 'req-1',
        method: 'GET',
        path: '/plants',
        status: 200,
        outcome: 'ok',
        caller: 'alice',
        latency_ms: expect.any(Number),
      }),
    ]);
    expect(requestMetrics()).toEqual([expect.objectContaining({ outcome: 'ok', Requests: 1, PlantsReturned: 1 })]);
  });

  it.each([
    ['a bad limit', () => `Bearer ${service.token('alice')}`, 'limit=0', 400, 'bad_request'],
    ['no token', () => undefined, '', 401, 'unauthorized'],
  ])('counts %s as exactly one request with its outcome', async (_, authorization, query, status, outcome) => {
    expect((await send(authorization(), query)).status).toBe(status);
    expect(requestMetrics()).toEqual([expect.objectContaining({ outcome, Requests: 1 })]);
    expect(requestLines()).toEqual([expect.objectContaining({ status, outcome })]);
  });

  it('counts auth failures by reason', async () => {
    await send(`Bearer ${service.token('alice', { exp: Math.floor(Date.now() / 1000) - 60 })}`);
    const failures = service.logs.entries().filter((entry) => 'AuthFailures' in entry);
    expect(failures).toEqual([expect.objectContaining({ reason: 'expired', AuthFailures: 1 })]);
  });

  it('keeps each request line to its own request when invocations overlap', async () => {
    service.logs.clear();
    const token = service.token('alice');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        service.call(httpApiEvent({ headers: i % 2 ? { authorization: `Bearer ${token}` } : {} })),
      ),
    );
    const lines = requestLines();
    expect(lines).toHaveLength(20);
    for (const line of lines) expect(line.caller).toBe(line.status === 200 ? 'alice' : undefined);
  });

  it('never writes a token or Authorization value to any line, even with event logging on', async () => {
    const tokens = [service.token('alice'), service.token('alice', { exp: 1 }), 'not-a-valid-token-value'];
    const seen: string[] = [];
    for (const token of tokens) {
      await send(`Bearer ${token}`);
      seen.push(...service.logs.raw());
    }
    expect(seen.length).toBeGreaterThan(0);
    for (const token of tokens) {
      for (const line of seen) {
        expect(line).not.toContain(token);
        for (const part of token.split('.')) expect(line).not.toContain(part);
      }
    }
    expect(seen.join('\n')).not.toMatch(/authorization|bearer/i);
  });
});
