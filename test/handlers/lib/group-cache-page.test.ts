// readPlantsPage with the group cache, against dynalite: group partitions answered from memory
// within the time to live (no Query sent), the caller's own partition always read, so a user's own
// new plants show at once while a group's show once its entry expires.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPlantsClient } from '../../../handlers/lib/dynamodb-client.ts';
import { GroupCache } from '../../../handlers/lib/group-cache.ts';
import { groupPartition, userPartition } from '../../../handlers/lib/partitions.ts';
import { type PlantsClient, readPlantsPage } from '../../../handlers/lib/plants.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { localDynamoConfig, UNHURRIED_DEADLINE_MS } from '../../helpers/function-env.ts';

const TABLE = 'group-cache-page-test';
let dynamo: LocalDynamo;
/** The function's client, recording the partition each Query asks for. */
let client: PlantsClient;
let queried: string[] = [];

beforeAll(async () => {
  // The function's client reads credentials from its environment, as on Lambda.
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  dynamo = await startDynamo(TABLE);
  const real = createPlantsClient(localDynamoConfig(dynamo.endpoint));
  client = {
    query: (input, options) => {
      queried.push(String(input.ExpressionAttributeValues[':owner']));
      return real.query(input, options);
    },
  };
});
afterAll(() => dynamo?.close());

const names = (page: Awaited<ReturnType<typeof readPlantsPage>>) =>
  page.plants.map((plant) => (JSON.parse(plant.json) as { name: string }).name);

describe('readPlantsPage with the group cache', () => {
  it("reads a group's partition once per time to live, and the caller's own on every page", async () => {
    let now = 0;
    const groupCache = new GroupCache({ ttlSeconds: 5, maxBytes: 1_000_000 }, () => now);
    await putPlants(dynamo.client, TABLE, [
      { owner: 'ann', id: 'a1', name: 'ann 1' },
      { group: 'team', id: 't1', name: 'team 1' },
      { group: 'team', id: 't2', name: 'team 2' },
    ]);
    const partitions = [userPartition('ann'), groupPartition('team')];
    const read = () =>
      readPlantsPage(client, TABLE, {
        partitions,
        from: { partition: 0, afterId: undefined },
        limit: 10,
        byteBudget: 1_000_000,
        deadlineMs: UNHURRIED_DEADLINE_MS,
        groupCache,
      });

    queried = [];
    expect(names(await read())).toEqual(['ann 1', 'team 1', 'team 2']);
    expect(queried).toEqual(['user#ann', 'group#team']);

    // New plants in both partitions: the caller's own show at once, the group's not yet.
    await putPlants(dynamo.client, TABLE, [
      { owner: 'ann', id: 'a2', name: 'ann 2' },
      { group: 'team', id: 't3', name: 'team 3' },
    ]);
    queried = [];
    now = 4000;
    expect(names(await read())).toEqual(['ann 1', 'ann 2', 'team 1', 'team 2']);
    expect(queried).toEqual(['user#ann']);

    now = 5000;
    expect(names(await read())).toEqual(['ann 1', 'ann 2', 'team 1', 'team 2', 'team 3']);
    expect(queried).toEqual(['user#ann', 'user#ann', 'group#team']);
  });

  it('pages through a cached group exactly as through DynamoDB, a next position after each cut', async () => {
    // A clock that stands still: the second walk is answered from the cache however long the first took.
    const groupCache = new GroupCache({ ttlSeconds: 60, maxBytes: 1_000_000 }, () => 0);
    const plants = Array.from({ length: 7 }, (_, i) => ({ group: 'big', id: `b${i}`, name: `big ${i}` }));
    await putPlants(dynamo.client, TABLE, plants);
    const partitions = [userPartition('nobody'), groupPartition('big')];
    const walk = async (limit: number) => {
      const seen: string[] = [];
      let from = { partition: 0, afterId: undefined as string | undefined };
      for (let pages = 0; pages < 20; pages++) {
        const page = await readPlantsPage(client, TABLE, {
          partitions,
          from,
          limit,
          byteBudget: 1_000_000,
          deadlineMs: UNHURRIED_DEADLINE_MS,
          groupCache,
        });
        seen.push(...names(page));
        if (page.next === undefined) return seen;
        from = page.next;
      }
      throw new Error('walk did not end');
    };
    const all = plants.map((plant) => plant.name);
    // A walk of 3s fills the cache and a second is answered from it; walks of other sizes mix
    // entries cut short with reads of their own, and still return every plant once.
    expect(await walk(3)).toEqual(all);
    queried = [];
    expect(await walk(3)).toEqual(all);
    expect(queried).not.toContain('group#big');
    expect(await walk(2)).toEqual(all);
    expect(await walk(1)).toEqual(all);
    expect(await walk(7)).toEqual(all);
  });

  it('reads a group once per time to live for members with any number of own plants', async () => {
    // Prepare: members owning 0 to 4 plants each, one group of 10; pages of 6.
    const groupCache = new GroupCache({ ttlSeconds: 5, maxBytes: 1_000_000 }, () => 0);
    const members = ['m0', 'm1', 'm2', 'm3', 'm4'];
    await putPlants(dynamo.client, TABLE, [
      ...members.flatMap((member, owned) =>
        Array.from({ length: owned }, (_, i) => ({ owner: member, id: `o${i}`, name: `${member} ${i}` })),
      ),
      ...Array.from({ length: 10 }, (_, i) => ({ group: 'crew', id: `c${i}`, name: `crew ${i}` })),
    ]);
    const page = (member: string) =>
      readPlantsPage(client, TABLE, {
        partitions: [userPartition(member), groupPartition('crew')],
        from: { partition: 0, afterId: undefined },
        limit: 6,
        byteBudget: 1_000_000,
        deadlineMs: UNHURRIED_DEADLINE_MS,
        groupCache,
      });

    // Act: the member needing the fewest group plants first, then the ones needing more.
    queried = [];
    const pages = [];
    for (const member of [...members].reverse()) pages.push(await page(member));

    // Assess: every page full, the group read once: its entry answers what each member's page needs.
    for (const read of pages) expect(read.plants).toHaveLength(6);
    expect(queried.filter((partition) => partition === 'group#crew')).toHaveLength(1);
  });
});
