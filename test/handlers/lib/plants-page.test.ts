// readPlantsPage against dynalite: pages across partitions, the limit and the byte budget counted
// across them, and a bounded number of Query calls per page however many partitions are empty.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPlantsClient } from '../../../handlers/lib/dynamodb-client.ts';
import { serializePlant } from '../../../handlers/lib/page-budget.ts';
import { groupPartition, userPartition } from '../../../handlers/lib/partitions.ts';
import {
  MAX_QUERIES_PER_PAGE,
  type PageRequest,
  type PlantsClient,
  type Position,
  readPlantsPage,
} from '../../../handlers/lib/plants.ts';
import { type LocalDynamo, type PlantItem, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { localDynamoConfig, UNHURRIED_DEADLINE_MS } from '../../helpers/function-env.ts';

const TABLE = 'plants-page-test';
let dynamo: LocalDynamo;
let queries = 0;
/** The function's client, counting the calls it sends. */
let client: PlantsClient;

const EMPTY_GROUPS = Array.from({ length: 95 }, (_, i) => `empty-${String(i).padStart(2, '0')}`);
const partitions = [
  userPartition('ann'),
  groupPartition('alpha'),
  ...EMPTY_GROUPS.map(groupPartition),
  groupPartition('zeta'),
];
const items: PlantItem[] = [
  ...[1, 2, 3].map((i) => ({ owner: 'ann', id: `a${i}`, name: `ann ${i}` })),
  ...[1, 2].map((i) => ({ group: 'alpha', id: `b${i}`, name: `alpha ${i}` })),
  ...[1, 2, 3].map((i) => ({ group: 'zeta', id: `c${i}`, name: `zeta ${i}` })),
];
const everything = items.map(({ name }) => ({ name }));

beforeAll(async () => {
  // The function's client reads credentials from its environment, as on Lambda.
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  dynamo = await startDynamo(TABLE);
  await putPlants(dynamo.client, TABLE, items);
  const real = createPlantsClient(localDynamoConfig(dynamo.endpoint));
  client = {
    query: (input, options) => {
      queries++;
      return real.query(input, options);
    },
  };
});
afterAll(() => dynamo?.close());

async function walk(request: Omit<PageRequest, 'from' | 'partitions'>) {
  const seen: unknown[] = [];
  const perPage: number[] = [];
  let from: Position | undefined = { partition: 0, afterId: undefined };
  while (from !== undefined && perPage.length < 100) {
    queries = 0;
    const page = await readPlantsPage(client, TABLE, { ...request, partitions, from });
    perPage.push(queries);
    seen.push(...page.plants.map((plant) => JSON.parse(plant.json)));
    from = page.next;
  }
  return { seen, perPage };
}

describe('readPlantsPage across partitions', () => {
  it.each([1, 2, 4, 7, 1000])('returns every plant once, own then groups, with limit %i', async (limit) => {
    const { seen, perPage } = await walk({ limit, byteBudget: 1_000_000, deadlineMs: UNHURRIED_DEADLINE_MS });
    expect(seen).toEqual(everything);
    for (const count of perPage) expect(count).toBeLessThanOrEqual(MAX_QUERIES_PER_PAGE);
  });

  it('ends a page after a bounded number of Query calls, however many empty groups follow', async () => {
    const { perPage } = await walk({ limit: 1000, byteBudget: 1_000_000, deadlineMs: UNHURRIED_DEADLINE_MS });
    // 98 partitions at one Query each, 10 per page: 10 pages, the cost of each bounded.
    expect(perPage).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 8]);
  });

  it('counts the byte budget across partitions and resumes right after the last plant', async () => {
    // Exactly the first four plants' bytes: the fifth does not fit.
    const budget = everything.slice(0, 4).reduce((sum, plant) => sum + serializePlant(plant).bytes, 0);
    const first = await readPlantsPage(client, TABLE, {
      partitions,
      from: { partition: 0, afterId: undefined },
      limit: 1000,
      byteBudget: budget,
      deadlineMs: UNHURRIED_DEADLINE_MS,
    });
    expect(first.plants.map((plant) => JSON.parse(plant.json))).toEqual(everything.slice(0, 4));
    expect(first.next).toEqual({ partition: 1, afterId: 'b1' });
  });
});
