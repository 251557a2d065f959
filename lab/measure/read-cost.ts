// Read cost per request while the table grows with other users' plants: the real bundle's Query
// (measured through the capacity proxy) against a Scan-with-filter of the same read.

import { CALLER, settings, TABLE } from '../config.ts';
import type { Bundle } from '../harness/bundles.ts';
import { type CapacityProxy, startCapacityProxy } from '../harness/capacity-proxy.ts';
import type { BenchEnvironment } from '../harness/environment.ts';
import { runFunction } from '../harness/function-process.ts';
import { withProgress } from '../harness/progress.ts';
import { seedOtherUsers } from '../harness/seed.ts';
import { round } from '../harness/stats.ts';
import { scanPlantsForOwner } from './scan-plants.ts';

export interface ReadCostPoint {
  otherUsersPlants: number;
  /** Read capacity units one `GET /plants` of the caller consumed (all its Query calls). */
  queryCapacityUnits: number;
  queryCalls: number;
  /** What the function's init warm-up Query consumed, once per cold start (not per request). */
  initCapacityUnits: number;
  scanCapacityUnits: number;
  scanPages: number;
  /** Seconds spent loading this step's plants, and the write rate reached. */
  seedSeconds: number;
  seedItemsPerSecond: number;
}

export async function measureReadCost(env: BenchEnvironment, handler: Bundle): Promise<ReadCostPoint[]> {
  const proxy = await startCapacityProxy(env.dynamo.endpoint);
  const points: ReadCostPoint[] = [];
  let size = 0;
  try {
    // Loading the other users' plants is what takes the time here (whole users of plantsPerOtherUser).
    const { tableSizes, plantsPerOtherUser: perUser } = settings;
    const loaded = Math.ceil(Math.max(...tableSizes) / perUser) * perUser;
    await withProgress("read cost: loading other users' plants", loaded, 'plants', async (progress) => {
      for (const target of tableSizes) {
        const started = performance.now();
        const rate = target > size ? await seedOtherUsers(env.dynamo.client, size, target, progress.increment) : 0;
        const seedSeconds = (performance.now() - started) / 1000;
        size = target;
        points.push(await measureAt(env, handler, proxy, target, seedSeconds, rate));
      }
    });
  } finally {
    await proxy.close();
  }
  return points;
}

/** The caller's read and a Scan of the same plants, with `target` other users' plants in the table. */
async function measureAt(
  env: BenchEnvironment,
  handler: Bundle,
  proxy: CapacityProxy,
  target: number,
  seedSeconds: number,
  rate: number,
): Promise<ReadCostPoint> {
  proxy.take();
  const run = await runFunction({
    bundle: handler.file,
    env: env.functionEnv({ dynamodb: proxy.endpoint }),
    event: env.event,
  });
  // The init warm-up asks for a partition no plant is in (handlers/lib/warm-up.ts).
  const taken = proxy.take();
  const queries = taken.filter((q) => /^(user|group)#/.test(q.partition));
  const warmUps = taken.filter((q) => !queries.includes(q));
  if (run.statusCode !== 200 || run.items !== settings.callerPlants) {
    throw new Error(`handler answered ${run.statusCode} with ${run.items} plants at ${target} other plants`);
  }
  const scan = await scanPlantsForOwner(env.dynamo.client, TABLE, CALLER, 1000);
  if (scan.plants !== settings.callerPlants) throw new Error(`scan found ${scan.plants} plants`);
  return {
    otherUsersPlants: target,
    queryCapacityUnits: queries.reduce((sum, q) => sum + q.capacityUnits, 0),
    queryCalls: queries.length,
    initCapacityUnits: warmUps.reduce((sum, q) => sum + q.capacityUnits, 0),
    scanCapacityUnits: round(scan.capacityUnits, 1),
    scanPages: scan.pages,
    seedSeconds: round(seedSeconds, 1),
    seedItemsPerSecond: Math.round(rate),
  };
}
