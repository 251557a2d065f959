// With REQUEST_LOG=all (`-c requestLog=all`) every request writes its record, successes included:
// who read how many plants, and the `ok` outcome and PlantsReturned metrics.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Service, startService } from '../../helpers/service.ts';

let service: Service;

beforeAll(async () => {
  service = await startService({ REQUEST_LOG: 'all' });
  await service.seed([
    { owner: 'alice', id: 'p1', name: 'Fern' },
    { owner: 'alice', id: 'p2', name: 'Ivy' },
  ]);
});
afterAll(() => service?.stop());

const records = () => service.logs.entries().filter((entry) => entry.message === 'request');

describe('REQUEST_LOG=all', () => {
  it('writes one record for a successful request, with the caller and the plants returned', async () => {
    service.logs.clear();
    await service.call(httpApiEvent({ headers: { authorization: `Bearer ${service.token('alice')}` } }));
    expect(service.logs.raw()).toHaveLength(1);
    expect(records()).toEqual([
      expect.objectContaining({
        level: 'INFO',
        status: 200,
        outcome: 'ok',
        caller: 'alice',
        Requests: 1,
        PlantsReturned: 2,
      }),
    ]);
    const [directive] = (records()[0]?._aws as { CloudWatchMetrics?: object[] } | undefined)?.CloudWatchMetrics ?? [];
    expect(directive).toEqual({
      Namespace: 'PlantStore',
      Dimensions: [['service', 'outcome']],
      Metrics: [
        { Name: 'Requests', Unit: 'Count' },
        { Name: 'PlantsReturned', Unit: 'Count' },
      ],
    });
  });

  it('keeps each record to its own request when invocations overlap', async () => {
    service.logs.clear();
    const token = service.token('alice');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        service.call(httpApiEvent({ headers: i % 2 ? { authorization: `Bearer ${token}` } : {} })),
      ),
    );
    const lines = records();
    expect(lines).toHaveLength(20);
    for (const line of lines) expect(line.caller).toBe(line.status === 200 ? 'alice' : undefined);
    for (const line of lines) expect(line.PlantsReturned).toBe(line.status === 200 ? 2 : undefined);
  });
});
