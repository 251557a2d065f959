// Read units of one group read on a first page, measured with the production bundle through the
// capacity proxy, for a company-wide group of each size and each page size the model compares, with
// the group cache off and on (a cold container: its first read is a miss). Each figure must equal
// the 4 KB computation (scale-read-units.ts), which the model then uses: a mismatch stops the run.

import { ENV } from '../../handlers/lib/environment.ts';
import { CALLER, settings } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import { startCapacityProxy } from '../harness/capacity-proxy.ts';
import { type BenchEnvironment, plantsOf } from '../harness/environment.ts';
import { runFunction } from '../harness/function-process.ts';
import { withProgress } from '../harness/progress.ts';
import { writeAll } from '../harness/seed.ts';
import { COMPANY_GROUP, groupReadItems, groupReadUnits } from './scale-read-units.ts';

/** The caller's own plants, read before any group on a first page. */
export const OWN_PLANTS = 20;
/** Company-wide groups of these sizes (plants): one page's worth and far more than a page. */
export const GROUP_SIZES = settings.quick ? [10, 300] : [10, 1_000, 10_000];
/** Page sizes compared: the old default (1,000), the chosen default and a smaller one. */
export const PAGE_SIZES = [1_000, 100, 50];
const CLAIM = 'groups';
/** Each group's name: as long as the model's company-wide group's, so its items are as large. */
const groupOf = (plants: number) => `company-${String(plants).padStart(COMPANY_GROUP.length - 8, '0')}`;

export interface GroupRead {
  groupPlants: number;
  /** The page size: MAX_PAGE_SIZE, and no `limit` sent, so it is the default page. */
  pageSize: number;
  cached: boolean;
  itemsRead: number;
  /** Through the capacity proxy (dynalite's ConsumedCapacity), and as computed. */
  measuredRru: number;
  computedRru: number;
}

export interface GroupReadMeasurements {
  ownPlants: number;
  /** The page a request without `limit` gets from the bundle as built (its default MAX_PAGE_SIZE). */
  defaultPage: number;
  reads: GroupRead[];
}

export async function measureGroupReads(env: BenchEnvironment, handler: Bundle): Promise<GroupReadMeasurements> {
  await writeAll(env.dynamo.client, [
    ...plantsOf(CALLER, OWN_PLANTS),
    ...GROUP_SIZES.flatMap((size) =>
      plantsOf('', size).map(({ owner: _, ...plant }) => ({ ...plant, group: groupOf(size) })),
    ),
  ]);
  const proxy = await startCapacityProxy(env.dynamo.endpoint);
  const run = async (groupPlants: number, pageSize: number | undefined, cached: boolean) => {
    proxy.take();
    const result = await runFunction({
      bundle: handler.file,
      env: {
        ...env.functionEnv({ dynamodb: proxy.endpoint, groupsClaim: CLAIM, groupCacheSeconds: cached ? 5 : 0 }),
        ...(pageSize !== undefined && { [ENV.maxPageSize]: String(pageSize) }),
      },
      event: env.eventWith({ [CLAIM]: [groupOf(groupPlants)] }),
    });
    if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
    const group = proxy.take().filter((q) => q.partition.startsWith('group#'));
    return { plants: result.items, group };
  };
  try {
    const runs = 1 + GROUP_SIZES.length * PAGE_SIZES.length * 2;
    return await withProgress('scale: group reads at each page size', runs, 'runs', async (progress) => {
      // The default page: a group larger than any page fills it.
      const largest = Math.max(...GROUP_SIZES);
      const defaultPage = (await run(largest, undefined, false)).plants;
      progress.increment();
      const reads: GroupRead[] = [];
      for (const groupPlants of GROUP_SIZES) {
        for (const pageSize of PAGE_SIZES) {
          for (const cached of [false, true]) {
            const { group } = await run(groupPlants, pageSize, cached);
            progress.increment();
            const measuredRru = group.reduce((sum, q) => sum + q.capacityUnits, 0);
            const computedRru = groupReadUnits(groupPlants, pageSize, OWN_PLANTS, cached, groupOf(groupPlants));
            if (group.length !== 1 || measuredRru !== computedRru) {
              throw new Error(
                `group of ${groupPlants}, page ${pageSize}, cache ${cached ? 'on' : 'off'}: ${group.length} Queries of ${measuredRru} RRU, computed 1 of ${computedRru}`,
              );
            }
            const itemsRead = groupReadItems(groupPlants, pageSize, OWN_PLANTS, cached);
            reads.push({ groupPlants, pageSize, cached, itemsRead, measuredRru, computedRru });
          }
        }
      }
      return { ownPlants: OWN_PLANTS, defaultPage, reads };
    });
  } finally {
    await proxy.close();
  }
}
