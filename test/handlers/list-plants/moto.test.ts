// A second opinion on the data access: the same handler against moto's DynamoDB emulator, so
// Query paging (Limit, ExclusiveStartKey, projection) is not only what dynalite happens to do.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PlantItem } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { nextQuery } from '../../helpers/links.ts';
import { startMoto } from '../../helpers/moto.ts';
import { type Service, startService } from '../../helpers/service.ts';

let service: Service;
const plants: PlantItem[] = ['alice', 'bob'].flatMap((owner) =>
  Array.from({ length: 7 }, (_, i) => ({ owner, id: `p${i}`, name: `${owner} ${i}`, tag: `t${i}`, secret: 'x' })),
);

beforeAll(async () => {
  service = await startService({}, startMoto);
  await service.seed(plants);
});
afterAll(() => service?.stop());

describe('against moto', () => {
  it("walks every page of the caller's plants, and only theirs", async () => {
    const seen: unknown[] = [];
    let query = 'limit=3';
    for (;;) {
      const reply = await service.call(
        httpApiEvent({ query, headers: { authorization: `Bearer ${service.token('bob')}` } }),
      );
      expect(reply.status).toBe(200);
      seen.push(...(reply.body as unknown[]));
      const next = nextQuery(reply);
      if (next === undefined) break;
      query = next;
    }
    expect(seen).toEqual(plants.filter((p) => p.owner === 'bob').map(({ name, tag }) => ({ name, tag })));
  });
});
