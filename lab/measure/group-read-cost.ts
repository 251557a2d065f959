// Read cost of one page for a caller whose token names many groups: the handler reads its own
// partition, then each group's in turn, and stops when the page is full (or after plants.ts's
// MAX_QUERIES_PER_PAGE calls). What a page costs should follow the page, not the number of groups.

import { ENV } from '../../handlers/lib/environment.ts';
import { settings } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import { startCapacityProxy } from '../harness/capacity-proxy.ts';
import type { BenchEnvironment } from '../harness/environment.ts';
import { plantsOf } from '../harness/environment.ts';
import { runFunction } from '../harness/function-process.ts';
import { withProgress } from '../harness/progress.ts';
import { writeAll } from '../harness/seed.ts';

/** The claim the function reads groups from in these runs. */
const CLAIM = 'groups';

export interface GroupReadCostPoint {
  groups: number;
  /** The page size asked for (`limit`). */
  limit: number;
  /** Plants on the first page, and what reading it took. */
  plants: number;
  queryCalls: number;
  capacityUnits: number;
}

const groupName = (i: number) => `bench-group-${String(i).padStart(3, '0')}`;

/** Seeds `maxGroups` groups of `settings.plantsPerGroup` plants; measures the first page per case. */
export async function measureGroupReadCost(env: BenchEnvironment, handler: Bundle): Promise<GroupReadCostPoint[]> {
  const { groupCounts, groupPageLimits, plantsPerGroup } = settings;
  const maxGroups = Math.max(...groupCounts);
  const maxLimit = Math.max(...groupPageLimits);
  const items = Array.from({ length: maxGroups }, (_, g) =>
    plantsOf('', plantsPerGroup).map(({ owner: _, ...plant }) => ({ ...plant, group: groupName(g) })),
  ).flat();
  await writeAll(env.dynamo.client, items);

  const proxy = await startCapacityProxy(env.dynamo.endpoint);
  const points: GroupReadCostPoint[] = [];
  try {
    const runs = groupCounts.length * groupPageLimits.length;
    await withProgress('read cost of one page, in many groups', runs, 'function processes', async (progress) => {
      for (const groups of groupCounts) {
        for (const limit of groupPageLimits) {
          const event = env.eventWith(
            { [CLAIM]: Array.from({ length: groups }, (_, g) => groupName(g)) },
            `limit=${limit}`,
          );
          proxy.take();
          const run = await runFunction({
            bundle: handler.file,
            // Pages larger than the default (100) are what these runs compare: the largest allowed.
            env: {
              ...env.functionEnv({ dynamodb: proxy.endpoint, groupsClaim: CLAIM }),
              [ENV.maxPageSize]: String(maxLimit),
            },
            event,
          });
          if (run.statusCode !== 200) throw new Error(`handler answered ${run.statusCode} for ${groups} groups`);
          const queries = proxy.take().filter((q) => /^(user|group)#/.test(q.partition));
          points.push({
            groups,
            limit,
            plants: run.items,
            queryCalls: queries.length,
            capacityUnits: queries.reduce((sum, q) => sum + q.capacityUnits, 0),
          });
          progress.increment();
        }
      }
    });
  } finally {
    await proxy.close();
  }
  return points;
}
