// What the on-call engineer gets from the function as the default stack configures it: nothing for a
// successful request (the API access log has it), one JSON record per refused or failed request that
// is both its log line and its EMF metrics, one record per cold start, and never a token.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUTH_FAILURES, SERVER_ERROR_BODY } from '../../../handlers/lib/errors.ts';
import { LIST_PLANTS } from '../../../handlers/lib/operations.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Service, startService } from '../../helpers/service.ts';

let service: Service;

beforeAll(async () => {
  // As Lambda sets it when the `live` alias points at version 7.
  service = await startService({ AWS_LAMBDA_FUNCTION_VERSION: '7' }, undefined, { issuerDownAtInit: true });
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Fern' }]);
});
afterAll(() => service?.stop());

type Entry = Record<string, unknown>;
type Directive = { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] };
const records = () => service.logs.entries().filter((entry) => entry.message === 'request');
const directives = (entry: Entry | undefined) =>
  ((entry?._aws as { CloudWatchMetrics?: Directive[] } | undefined)?.CloudWatchMetrics ?? []) as Directive[];
/** The dimension names each metric of a record is published under. */
const metricDimensions = (entry: Entry | undefined) =>
  Object.fromEntries(directives(entry).flatMap((d) => d.Metrics.map((m) => [m.Name, d.Dimensions])));

async function send(authorization: string | undefined, query = '') {
  service.logs.clear();
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return service.call(httpApiEvent({ query, headers }));
}

describe('the init record', () => {
  it('counts the cold start and times INIT once, before the first request', () => {
    const inits = service.logs.entries().filter((entry) => entry.message === 'init');
    expect(inits).toEqual([expect.objectContaining({ ColdStart: 1, InitDuration: expect.any(Number) })]);
    expect(metricDimensions(inits[0])).toEqual({ ColdStart: [['service']], InitDuration: [['service']] });
  });
});

describe('the request record', () => {
  it('answers a JWKS outage at cold start with one ERROR record: cause, ServerErrors by version, no second line', async () => {
    service.issuer.available = false;
    expect((await send(`Bearer ${service.token('alice')}`)).status).toBe(503);
    service.issuer.available = true;

    expect(service.logs.raw()).toHaveLength(1);
    const [record] = records();
    expect(record).toMatchObject({
      level: 'ERROR',
      status: 503,
      outcome: 'unavailable',
      cold_start: true,
      version: '7',
      Requests: 1,
      ServerErrors: 1,
      error: { name: 'ServiceUnavailableError', cause: { name: expect.any(String), message: expect.any(String) } },
    });
    // The delivery pipeline's rollback alarm reads exactly this metric.
    expect(directives(record)).toContainEqual({
      Namespace: 'PlantStore',
      Dimensions: [['service', 'version']],
      Metrics: [{ Name: 'ServerErrors', Unit: 'Count' }],
    });
    expect(record?.service).toBe('plant-store');
  });

  it('writes nothing at all for a successful request', async () => {
    expect((await send(`Bearer ${service.token('alice')}`)).status).toBe(200);
    expect(service.logs.raw()).toEqual([]);
  });

  it.each([
    ['a bad limit', () => `Bearer ${service.token('alice')}`, 'limit=0', 400, 'bad_request', 'alice'],
    ['no token', () => undefined, '', 401, 'unauthorized', undefined],
  ])(
    'logs %s as exactly one INFO record that counts it by outcome',
    async (_, auth, query, status, outcome, caller) => {
      expect((await send(auth(), query)).status).toBe(status);
      expect(service.logs.raw()).toHaveLength(1);
      const [record] = records();
      expect(record).toMatchObject({ level: 'INFO', status, outcome, Requests: 1, cold_start: false });
      expect(record?.caller).toBe(caller);
      expect(record).toEqual(
        expect.objectContaining({
          function_request_id: 'lambda-req-1',
          apigw_request_id: 'req-1',
          latency_ms: expect.any(Number),
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        }),
      );
      expect(metricDimensions(record)).toMatchObject({ Requests: [['service', 'outcome']] });
      expect(record).not.toHaveProperty('ServerErrors');
    },
  );

  it('says why a token was refused, and counts refusals by reason apart from requests', async () => {
    await send(`Bearer ${service.token('alice', { exp: Math.floor(Date.now() / 1000) - 60 })}`);
    const [record] = records();
    expect(record).toMatchObject({ status: 401, reason: 'expired', AuthFailures: 1, Requests: 1 });
    expect(metricDimensions(record)).toEqual({
      Requests: [['service', 'outcome']],
      AuthFailures: [['service', 'reason']],
    });
  });

  it('is one line, stamped for CloudWatch in milliseconds', async () => {
    await send(undefined);
    const [line] = service.logs.raw();
    const record = JSON.parse(line ?? '{}');
    expect((record._aws as { Timestamp: number }).Timestamp).toBe(Date.parse(record.timestamp));
  });

  it('never writes a token or Authorization value', async () => {
    const tokens = [service.token('alice', { exp: 1 }), 'not-a-valid-token-value', service.token('alice')];
    const seen: string[] = [];
    for (const token of tokens) {
      await send(`Bearer ${token}`, 'limit=0');
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

  it('writes a refusal the same size whatever the size of what the caller sent (a flood bills no line it sizes)', async () => {
    const refusal = async (size: number) => {
      service.logs.clear();
      const long = 'a'.repeat(size);
      const event = httpApiEvent({
        query: `limit=${long}&cursor=${long}`,
        headers: { authorization: `Bearer ${long}`, 'user-agent': long, [`x-${long}`]: long },
        path: `/plants/${long}`,
      });
      expect((await service.call(event)).status).toBe(401);
      const [record] = records();
      expect(record).toMatchObject({ status: 401 });
      // What varies from one request to the next whatever it carried: its latency and time stamps,
      // and which check refused it, one of a fixed list.
      const { latency_ms: _latency, timestamp: _timestamp, _aws: _stamp, reason, ...rest } = record ?? {};
      expect(AUTH_FAILURES).toContain(reason);
      return JSON.stringify(rest).length;
    };
    expect(await refusal(8000)).toBe(await refusal(1));
  });

  it("names the table's operation the route reached", async () => {
    service.logs.clear();
    expect((await service.call(httpApiEvent({}))).status).toBe(401);
    expect(records()).toEqual([expect.objectContaining({ operation: LIST_PLANTS.operationId })]);
  });

  it("answers a route the table doesn't hold with the generic 500, its cause in the record", async () => {
    service.logs.clear();
    const event = httpApiEvent({ headers: { authorization: `Bearer ${service.token('alice')}` } });
    const elsewhere = { ...event, routeKey: 'GET /elsewhere', rawPath: '/elsewhere' };
    expect(await service.call(elsewhere)).toMatchObject({ status: 500, body: JSON.parse(SERVER_ERROR_BODY) });
    expect(records()).toEqual([
      expect.objectContaining({
        status: 500,
        outcome: 'error',
        error: expect.objectContaining({ message: expect.stringContaining('no operation for this route') }),
      }),
    ]);
  });
});
